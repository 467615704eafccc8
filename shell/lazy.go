package shell

import "sync"

// lazy is a package-level value built by code on first use. Built in
// package initialisation instead, it would cost every process that
// imports shell (the hook at every call) whether it is used or not, and a
// call there makes the compiler copy the later tables at start rather
// than lay them out in the binary.
type lazy[T any] struct {
	build func() T
	once  sync.Once
	v     T
}

// get returns the value, built the first time.
func (l *lazy[T]) get() T {
	l.once.Do(func() { l.v = l.build() })
	return l.v
}
