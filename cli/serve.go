package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/tools"
)

// runServe serves the store over MCP: `mneme serve` (also what plain `mneme`
// does). Only the stdio transport exists so far. In stdio mode stdout carries
// JSON-RPC and nothing else: logs go to stderr or the log file.
//
// Start-up stays light so the client's initialize is answered at once:
// memory.Open only migrates the schema and loads its index in the
// background; tool calls wait for the index, the handshake does not.
func runServe(a *app, args []string) error {
	fs := a.newFlagSet()
	var transport string
	fs.StringVar(&transport, "transport", "", "stdio (the only transport so far; env MNEME_TRANSPORT)")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("serve takes no arguments, got %q", pos)
	}
	e, err := a.setup()
	if err != nil {
		return err
	}
	defer e.close()
	if transport == "" {
		transport = e.cfg.Server.Transport
	}
	if transport != "stdio" {
		return usagef("transport %q is not available in this version: only stdio is (http arrives in a later version)", transport)
	}
	st, err := a.openStore(e, e.cfg.DBPath(), false)
	if err != nil {
		return err
	}
	defer st.Close()

	s := tools.NewServer(tools.Deps{
		Store:        st,
		Logger:       e.logger,
		Now:          e.now,
		Location:     e.loc,
		DefaultScope: e.cfg.Scope,
		Budget:       e.cfg.Recall.Budget,
		Version:      version(),
	})
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(slog.NewLogLogger(e.logger.Handler(), slog.LevelError))
	e.logger.Info("serving", "transport", "stdio", "store", st.Path(), "model", st.ModelID(), "version", version())
	err = stdio.Listen(a.ctx, a.stdin, a.stdout)
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("serve: %w", err)
	}
	e.logger.Info("stopped")
	return nil
}
