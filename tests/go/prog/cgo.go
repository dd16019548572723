// SPDX-License-Identifier: MIT

//go:build cgo

// Built with cgo, the program is linked dynamically against the C
// library, and its threads are made by pthread_create.
package main

// static int twice(int x) { return 2 * x; }
import "C"

func init() {
	if C.twice(21) != 42 {
		panic("cgo")
	}
}
