package smtgen

import (
	"math/big"
	"strings"
)

// evalBV evaluates the FixedSizeBitVectors operators (and bv2nat, int2bv, and SMT-LIB 2.7's
// overflow predicates and bvredor, bvredand); ok is false for other names. Division by zero is the SMT-LIB 2.6 one: bvudiv gives all ones, bvurem the dividend, and
// the signed operations follow from their definitions in terms of the unsigned ones.
func evalBV(t *Term, args []Value) (v Value, ok bool, err error) {
	if isBVLitName(t.Name) && len(t.Index) == 1 {
		n, good := new(big.Int).SetString(t.Name[2:], 10)
		if !good {
			return nil, true, errBadLiteral(t)
		}
		return NewBV(t.Index[0], n), true, nil
	}
	switch t.Name {
	case "bv2nat":
		return IntValue{new(big.Int).Set(args[0].(BVValue).V)}, true, nil
	case "int2bv", "nat2bv":
		return NewBV(t.Index[0], args[0].(IntValue).V), true, nil
	case "concat":
		w := 0
		r := new(big.Int)
		for _, a := range args {
			b := a.(BVValue)
			r.Lsh(r, uint(b.W)).Or(r, b.V)
			w += b.W
		}
		return BVValue{W: w, V: r}, true, nil
	case "extract":
		x := args[0].(BVValue)
		i, j := t.Index[0], t.Index[1]
		return NewBV(i-j+1, new(big.Int).Rsh(x.V, uint(j))), true, nil
	case "repeat":
		x := args[0].(BVValue)
		r := new(big.Int)
		for k := 0; k < t.Index[0]; k++ {
			r.Lsh(r, uint(x.W)).Or(r, x.V)
		}
		return BVValue{W: x.W * t.Index[0], V: r}, true, nil
	case "zero_extend":
		x := args[0].(BVValue)
		return BVValue{W: x.W + t.Index[0], V: x.V}, true, nil
	case "sign_extend":
		x := args[0].(BVValue)
		return NewBV(x.W+t.Index[0], bvSigned(x)), true, nil
	case "rotate_left", "rotate_right":
		x := args[0].(BVValue)
		k := t.Index[0] % x.W
		if t.Name == "rotate_right" {
			k = (x.W - k) % x.W
		}
		hi := new(big.Int).Lsh(x.V, uint(k))
		lo := new(big.Int).Rsh(x.V, uint(x.W-k))
		return NewBV(x.W, hi.Or(hi, lo)), true, nil
	case "bvnot":
		x := args[0].(BVValue)
		return BVValue{W: x.W, V: new(big.Int).Xor(x.V, bvMask(x.W))}, true, nil
	case "bvneg":
		x := args[0].(BVValue)
		return NewBV(x.W, new(big.Int).Neg(x.V)), true, nil
	case "bvnego":
		x := args[0].(BVValue)
		return BoolValue(!bvFitsSigned(x.W, new(big.Int).Neg(bvSigned(x)))), true, nil
	case "bvredor", "bvredand":
		x := args[0].(BVValue)
		on := x.V.Sign() != 0
		if t.Name == "bvredand" {
			on = x.V.Cmp(bvMask(x.W)) == 0
		}
		if on {
			return NewBVUint(1, 1), true, nil
		}
		return NewBVUint(1, 0), true, nil
	case "bvand", "bvor", "bvxor", "bvadd", "bvmul", "bvsub":
		x := args[0].(BVValue)
		r := new(big.Int).Set(x.V)
		for _, a := range args[1:] {
			y := a.(BVValue).V
			switch t.Name {
			case "bvand":
				r.And(r, y)
			case "bvor":
				r.Or(r, y)
			case "bvxor":
				r.Xor(r, y)
			case "bvadd":
				r.Add(r, y)
			case "bvmul":
				r.Mul(r, y)
			case "bvsub":
				r.Sub(r, y)
			}
			r.And(r, bvMask(x.W))
		}
		return BVValue{W: x.W, V: r}, true, nil
	}
	if len(args) != 2 {
		return nil, false, nil
	}
	x, isBV := args[0].(BVValue)
	if !isBV {
		return nil, false, nil
	}
	y := args[1].(BVValue)
	w := x.W
	switch t.Name {
	case "bvnand":
		r := new(big.Int).And(x.V, y.V)
		return BVValue{W: w, V: r.Xor(r, bvMask(w))}, true, nil
	case "bvnor":
		r := new(big.Int).Or(x.V, y.V)
		return BVValue{W: w, V: r.Xor(r, bvMask(w))}, true, nil
	case "bvxnor":
		r := new(big.Int).Xor(x.V, y.V)
		return BVValue{W: w, V: r.Xor(r, bvMask(w))}, true, nil
	case "bvcomp":
		if x.V.Cmp(y.V) == 0 {
			return NewBVUint(1, 1), true, nil
		}
		return NewBVUint(1, 0), true, nil
	case "bvudiv":
		return bvUdiv(x, y), true, nil
	case "bvurem":
		return bvUrem(x, y), true, nil
	case "bvsdiv", "bvsrem", "bvsmod":
		return bvSignedDiv(t.Name, x, y), true, nil
	case "bvshl", "bvlshr", "bvashr":
		if y.V.Cmp(big.NewInt(int64(w))) >= 0 {
			if t.Name == "bvashr" && x.V.Bit(w-1) == 1 {
				return BVValue{W: w, V: bvMask(w)}, true, nil
			}
			return NewBVUint(w, 0), true, nil
		}
		k := uint(y.V.Uint64())
		switch t.Name {
		case "bvshl":
			return NewBV(w, new(big.Int).Lsh(x.V, k)), true, nil
		case "bvlshr":
			return BVValue{W: w, V: new(big.Int).Rsh(x.V, k)}, true, nil
		default:
			return NewBV(w, new(big.Int).Rsh(bvSigned(x), k)), true, nil
		}
	case "bvuaddo", "bvumulo", "bvusubo":
		r := new(big.Int)
		switch t.Name {
		case "bvuaddo":
			r.Add(x.V, y.V)
		case "bvumulo":
			r.Mul(x.V, y.V)
		default:
			r.Sub(x.V, y.V)
		}
		return BoolValue(r.Sign() < 0 || r.BitLen() > w), true, nil
	case "bvsaddo", "bvsmulo", "bvssubo", "bvsdivo":
		a, b := bvSigned(x), bvSigned(y)
		r := new(big.Int)
		switch t.Name {
		case "bvsaddo":
			r.Add(a, b)
		case "bvsmulo":
			r.Mul(a, b)
		case "bvssubo":
			r.Sub(a, b)
		default: // only the most negative value divided by -1 overflows; division by 0 does not
			if b.Sign() == 0 {
				return BoolValue(false), true, nil
			}
			r.Quo(a, b)
		}
		return BoolValue(!bvFitsSigned(w, r)), true, nil
	case "bvult", "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge":
		var c int
		if strings.HasPrefix(t.Name, "bvu") {
			c = x.V.Cmp(y.V)
		} else {
			c = bvSigned(x).Cmp(bvSigned(y))
		}
		switch t.Name[3:] {
		case "lt":
			return BoolValue(c < 0), true, nil
		case "le":
			return BoolValue(c <= 0), true, nil
		case "gt":
			return BoolValue(c > 0), true, nil
		default:
			return BoolValue(c >= 0), true, nil
		}
	}
	return nil, false, nil
}

// bvSigned returns the two's complement value of x.
func bvSigned(x BVValue) *big.Int {
	if x.V.Bit(x.W-1) == 0 {
		return x.V
	}
	r := new(big.Int).Lsh(big.NewInt(1), uint(x.W))
	return r.Sub(x.V, r)
}

// bvFitsSigned reports whether v is a w-bit two's complement value.
func bvFitsSigned(w int, v *big.Int) bool {
	lim := new(big.Int).Lsh(big.NewInt(1), uint(w-1))
	return v.Cmp(lim) < 0 && v.Cmp(lim.Neg(lim)) >= 0
}

// bvUdiv is bvudiv: all ones when y is 0.
func bvUdiv(x, y BVValue) BVValue {
	if y.V.Sign() == 0 {
		return BVValue{W: x.W, V: bvMask(x.W)}
	}
	return BVValue{W: x.W, V: new(big.Int).Quo(x.V, y.V)}
}

// bvUrem is bvurem: x when y is 0.
func bvUrem(x, y BVValue) BVValue {
	if y.V.Sign() == 0 {
		return x
	}
	return BVValue{W: x.W, V: new(big.Int).Rem(x.V, y.V)}
}

// bvNeg is bvneg.
func bvNeg(x BVValue) BVValue { return NewBV(x.W, new(big.Int).Neg(x.V)) }

// bvSignedDiv evaluates bvsdiv, bvsrem and bvsmod by their SMT-LIB definitions.
func bvSignedDiv(op string, s, t BVValue) BVValue {
	ms, mt := s.V.Bit(s.W-1) == 1, t.V.Bit(t.W-1) == 1
	switch op {
	case "bvsdiv":
		switch {
		case !ms && !mt:
			return bvUdiv(s, t)
		case ms && !mt:
			return bvNeg(bvUdiv(bvNeg(s), t))
		case !ms && mt:
			return bvNeg(bvUdiv(s, bvNeg(t)))
		default:
			return bvUdiv(bvNeg(s), bvNeg(t))
		}
	case "bvsrem":
		switch {
		case !ms && !mt:
			return bvUrem(s, t)
		case ms && !mt:
			return bvNeg(bvUrem(bvNeg(s), t))
		case !ms && mt:
			return bvUrem(s, bvNeg(t))
		default:
			return bvNeg(bvUrem(bvNeg(s), bvNeg(t)))
		}
	}
	// bvsmod
	absS, absT := s, t
	if ms {
		absS = bvNeg(s)
	}
	if mt {
		absT = bvNeg(t)
	}
	u := bvUrem(absS, absT)
	add := func(a, b BVValue) BVValue { return NewBV(a.W, new(big.Int).Add(a.V, b.V)) }
	switch {
	case u.V.Sign() == 0:
		return u
	case !ms && !mt:
		return u
	case ms && !mt:
		return add(bvNeg(u), t)
	case !ms && mt:
		return add(u, t)
	default:
		return bvNeg(u)
	}
}
