package sqlgen

import "strings"

// Roles of the queries in a case (see the package documentation for their text).
const (
	RoleNoRECOptCount = "norec.opt-count" // SELECT COUNT(*) FROM <from> WHERE <pred>
	RoleNoRECOptRows  = "norec.opt-rows"  // SELECT * FROM <from> WHERE <pred> [<order>]
	RoleNoRECUnopt    = "norec.unopt"     // SELECT SUM(count) FROM (SELECT (<pred>) IS TRUE AS count FROM <from>)
	RoleTLPOrig       = "tlp.orig"        // SELECT * FROM <from>
	RoleTLPP          = "tlp.p"           // SELECT * FROM <from> WHERE <pred>
	RoleTLPNotP       = "tlp.notp"        // SELECT * FROM <from> WHERE NOT (<pred>)
	RoleTLPNull       = "tlp.null"        // SELECT * FROM <from> WHERE (<pred>) IS NULL
)

// Keys of fuzz.Case.Params: the pieces every query is built from.
const (
	ParamPred  = "pred"  // the predicate
	ParamFrom  = "from"  // the FROM clause, without the keyword
	ParamOrder = "order" // the ORDER BY clause of norec.opt-rows, when it has one
)

var tlpRoles = []string{RoleTLPOrig, RoleTLPP, RoleTLPNotP, RoleTLPNull}

// render returns the text of the query with the given role, or "" for an unknown role.
func (d *dialect) render(role, from, pred, order string) string {
	var b strings.Builder
	b.Grow(len(from) + 2*len(pred) + len(order) + 64)
	switch role {
	case RoleNoRECOptCount:
		b.WriteString("SELECT COUNT(*) FROM ")
		b.WriteString(from)
		b.WriteString(" WHERE ")
		b.WriteString(pred)
	case RoleNoRECOptRows, RoleTLPP:
		b.WriteString("SELECT * FROM ")
		b.WriteString(from)
		b.WriteString(" WHERE ")
		b.WriteString(pred)
		if order != "" && role == RoleNoRECOptRows {
			b.WriteByte(' ')
			b.WriteString(order)
		}
	case RoleNoRECUnopt:
		b.WriteString(d.unoptPre)
		b.WriteString(pred)
		b.WriteString(d.unoptMid)
		b.WriteString(from)
		b.WriteString(d.unoptPost)
	case RoleTLPOrig:
		b.WriteString("SELECT * FROM ")
		b.WriteString(from)
	case RoleTLPNotP:
		b.WriteString("SELECT * FROM ")
		b.WriteString(from)
		b.WriteString(" WHERE NOT (")
		b.WriteString(pred)
		b.WriteByte(')')
	case RoleTLPNull:
		b.WriteString("SELECT * FROM ")
		b.WriteString(from)
		b.WriteString(" WHERE (")
		b.WriteString(pred)
		b.WriteString(") IS NULL")
	default:
		return ""
	}
	return b.String()
}
