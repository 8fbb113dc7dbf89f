//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package ontology

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive flock on path (created if needed) and returns
// the function that releases it. flock locks belong to the open file, so
// two Managers in one process exclude each other too.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}
