// Command mneme is a long-term memory server for LLM clients, spoken to over
// the Model Context Protocol, with a command line for the same store.
//
// Everything happens in package cli; main only hands it the process's
// arguments, environment and standard streams, and cancels on SIGINT/SIGTERM.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mneme-mcp/mneme/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
