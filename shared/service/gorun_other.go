//go:build !linux

package service

// stopWithGoRun is Linux's alone (gorun_linux.go).
func stopWithGoRun() {}
