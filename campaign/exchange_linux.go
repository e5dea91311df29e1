package campaign

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the directories a and b atomically. It returns errNoTarget when b does not
// exist and errNoExchange when the file system cannot swap.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	switch {
	case errors.Is(err, unix.ENOENT):
		return errNoTarget
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EOPNOTSUPP):
		return errNoExchange
	}
	return err
}
