package campaign

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A finding directory is never written in place, apart from finding.json's counters: it is built
// under a temporary name in findings/ and swapped in whole, so that findings/<hash> is complete and
// agrees with its finding.json at every instant, even when the process is killed. The names of
// what is left over by a killed process say what to do with it when a store next opens:
//
//	.tmp-<hash>-<pid>-<n>   a directory being built, or the old one after a swap: removed
//	.old-<hash>-<pid>-<n>   the old directory during a swap on a file system that cannot swap
//	                        atomically: put back if findings/<hash> is missing, else removed
//	.<name>.tmp<digits>     a file being written by writeAtomic: removed
const (
	tmpPrefix = ".tmp-"
	oldPrefix = ".old-"
)

var (
	errNoTarget   = errors.New("no directory to exchange with")
	errNoExchange = errors.New("the file system cannot exchange directories")
)

// isTemp reports whether a directory entry is a temporary file or directory (writeAtomic's or
// the store's) that only a killed process leaves behind.
func isTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp")
}

// tempName returns a fresh name in findings/ for the directory of the finding hash.
func (s *Store) tempName(prefix, hash string) string {
	return filepath.Join(s.Dir, "findings", fmt.Sprintf("%s%s-%d-%d", prefix, hash, os.Getpid(), s.tmpN.Add(1)))
}

// swapDir puts the complete directory tmp in the place of final, atomically where the file
// system allows, and removes what final held.
func (s *Store) swapDir(tmp, final, hash string) error {
	err := exchange(tmp, final)
	switch err {
	case nil:
		os.RemoveAll(tmp) // now the old directory; what is left of it goes when a store next opens
	case errNoTarget:
		err = os.Rename(tmp, final)
	case errNoExchange:
		old := s.tempName(oldPrefix, hash)
		if err = os.Rename(final, old); err != nil {
			return err
		}
		if err = os.Rename(tmp, final); err != nil {
			os.Rename(old, final)
			return err
		}
		os.RemoveAll(old)
	}
	if err != nil {
		return err
	}
	return syncDir(filepath.Dir(final))
}

// syncDir makes the renames in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// copyFiles copies the regular files of the directory from into the directory to, except
// finding.json and temporary files.
func copyFiles(from, to string) error {
	ents, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || e.Name() == "finding.json" || isTemp(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		if err := WriteAtomic(to, e.Name(), b); err != nil {
			return err
		}
		if err := os.Chmod(filepath.Join(to, e.Name()), info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

// removeTemps removes the temporary files a killed process left in dir.
func removeTemps(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if isTemp(e.Name()) {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// recoverFindings finishes or undoes what a killed process left in the findings directory dir:
// half-built and replaced finding directories are removed, and a directory moved aside by a swap
// that did not finish is put back.
func recoverFindings(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(dir, name)
		switch {
		case strings.HasPrefix(name, oldPrefix):
			hash, _, _ := strings.Cut(strings.TrimPrefix(name, oldPrefix), "-")
			if _, err := os.Lstat(filepath.Join(dir, hash)); os.IsNotExist(err) {
				err = os.Rename(path, filepath.Join(dir, hash))
			} else {
				err = os.RemoveAll(path)
			}
			if err != nil {
				return err
			}
		case isTemp(name):
			if err := os.RemoveAll(path); err != nil {
				return err
			}
		}
	}
	return nil
}
