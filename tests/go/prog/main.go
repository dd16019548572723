// SPDX-License-Identifier: MIT

// One Go program, many behaviours (the first argument picks one), run by
// tests/go natively and under sysgate: its output must not change.
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

var cases = map[string]func() error{
	"goroutines": goroutines,
	"http":       httpRoundTrip,
	"exec":       execSelfAndShell,
	"signal":     signals,
	"timers":     timers,
	"timeloop":   timeLoop,
	"child":      child,
}

func main() {
	if len(os.Args) < 2 || cases[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: goprog goroutines|http|exec|signal|timers|timeloop")
		os.Exit(2)
	}
	if err := cases[os.Args[1]](); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("EXIT-SUCCESS")
}

// Busy goroutines on every thread: async preemption (SIGURG) and new
// threads made by the runtime's own clone.
func goroutines() error {
	var wg sync.WaitGroup
	sums := make([]int, 16)
	for i := range sums {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 20000000; j++ {
				sums[i] += j % (i + 2)
			}
		}(i)
	}
	wg.Wait()
	fmt.Println("sums", sums[0], sums[15])
	return nil
}

func httpRoundTrip() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello %s", r.URL.Path)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	for i := 0; i < 20; i++ {
		resp, err := http.Get(fmt.Sprintf("http://%s/req%d", ln.Addr(), i))
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if i%10 == 0 {
			fmt.Println(resp.StatusCode, string(body))
		}
	}
	return nil
}

// os.Executable must name this program (re-executing itself works), and
// os/exec starts children through the runtime's fork (clone with
// CLONE_VFORK|CLONE_VM).
func execSelfAndShell() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Println("executable", filepath.Base(exe))
	out, err := exec.Command(exe, "child", "from-self").Output()
	if err != nil {
		return err
	}
	fmt.Print(string(out))
	out, err = exec.Command("/bin/sh", "-c", "echo from sh; exit 3").Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		return fmt.Errorf("sh: %v", err)
	}
	fmt.Print(string(out))
	return nil
}

func child() error {
	fmt.Println("child says", os.Args[2])
	return nil
}

func signals() error {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1, syscall.SIGUSR2)
	for _, s := range []syscall.Signal{syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGUSR1} {
		if err := syscall.Kill(os.Getpid(), s); err != nil {
			return err
		}
		fmt.Println("got", <-c)
	}
	return nil
}

func timers() error {
	t := time.NewTicker(2 * time.Millisecond)
	defer t.Stop()
	for i := 0; i < 25; i++ {
		<-t.C
	}
	timer := time.AfterFunc(5*time.Millisecond, func() {})
	time.Sleep(10 * time.Millisecond)
	fmt.Println("ticks 25, timer stopped late:", !timer.Stop())
	return nil
}

// time.Now through the vDSO, on goroutine stacks, from many goroutines.
func timeLoop() error {
	var wg sync.WaitGroup
	bad := make([]int, 4)
	for g := range bad {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			prev := time.Now()
			for i := 0; i < 2000000; i++ {
				now := time.Now()
				if now.Before(prev) {
					bad[g]++
				}
				prev = now
			}
		}(g)
	}
	wg.Wait()
	fmt.Println("time went backwards:", bad)
	return nil
}
