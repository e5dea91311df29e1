package smtgen

import (
	"math/rand/v2"
	"testing"
)

func TestFPQuick(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20; i++ {
		tm := RandomFPTerm(r, "", nil, 2)
		v, err := NewModel(NewEnv("ALL")).Eval(tm)
		t.Logf("%s => %v %v", tm, v, err)
	}
}
