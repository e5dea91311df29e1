package datalog

// RowTuple turns an answer row [relation, canonical values...] back into a tuple; false when a
// value is not canonical.
func RowTuple(row []string) (Tuple, bool) { return rowTuple(row) }
