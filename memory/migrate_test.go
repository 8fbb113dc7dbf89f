package memory

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// rawDB opens path with no busy handler (busy_timeout 0), the situation
// SQLite is in while a new file is switched to WAL: a lock held elsewhere
// fails at once with SQLITE_BUSY instead of waiting.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// holdExclusive takes an exclusive lock on path and releases it after d.
func holdExclusive(t *testing.T, path string, d time.Duration) <-chan struct{} {
	t.Helper()
	ctx := context.Background()
	conn, err := rawDB(t, path).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(d)
		conn.ExecContext(ctx, "COMMIT")
		conn.Close()
		close(released)
	}()
	return released
}

func TestIsBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	released := holdExclusive(t, path, 300*time.Millisecond)
	_, err := rawDB(t, path).Exec("CREATE TABLE x (a)")
	if !isBusy(err) {
		t.Fatalf("isBusy(%v) = false, want true", err)
	}
	<-released
	if isBusy(errors.New("database is locked")) || isBusy(nil) {
		t.Fatal("isBusy true for an error that is not SQLite's SQLITE_BUSY")
	}
}

// TestMigrateRetriesBusyFirstOpen: a new store whose file is locked by
// another process while it is first set up is migrated once the lock is
// released, instead of failing (two clients starting together on a fresh
// machine both come up). Without the retry, migrate fails at once here.
func TestMigrateRetriesBusyFirstOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fresh.db")
	released := holdExclusive(t, path, 200*time.Millisecond)
	db := rawDB(t, path)
	if err := migrate(context.Background(), db); err != nil {
		t.Fatalf("migrate while another connection held the new file: %v", err)
	}
	<-released
	v, err := userVersion(context.Background(), db)
	if err != nil || v != len(migrations) {
		t.Fatalf("user_version = %d, %v; want %d", v, err, len(migrations))
	}
}
