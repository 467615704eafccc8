// Package lazy holds a value computed on first use.
//
// It is sync.OnceValue as a type. A package-level var set by calling
// sync.OnceValue is an initializer that runs when the process starts:
// it allocates, writes its var's page of memory (a page fault), and after
// it the compiler builds the package's later tables at start-up too,
// copying them into .data instead of laying them out. A var of Value is
// laid out by the compiler and costs a process nothing until used, which
// matters to the per-call hook (docs/BENCHMARKS.md).
package lazy

import "sync"

// Value is a value of type T computed by New the first time Get is
// called. Its zero value has no New; it must not be copied after first
// use.
type Value[T any] struct {
	// New computes the value; it is called at most once.
	New  func() T
	once sync.Once
	v    T
}

// Get returns New's value, calling New the first time.
func (l *Value[T]) Get() T {
	l.once.Do(func() { l.v = l.New() })
	return l.v
}
