//go:build !linux

package campaign

import (
	"os"
)

// exchange swaps the directories a and b atomically. This system has no atomic swap: it
// returns errNoTarget when b does not exist and errNoExchange otherwise.
func exchange(a, b string) error {
	if _, err := os.Lstat(b); os.IsNotExist(err) {
		return errNoTarget
	}
	return errNoExchange
}
