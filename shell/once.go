package shell

import "sync"

// onceValue is sync.OnceValue as a value. A package-level var set by
// calling sync.OnceValue is an initializer that runs at start-up, and
// after one such call the compiler also builds the package's later tables
// at start-up, copying them into .data, where each page written costs the
// process a page fault. A var of onceValue is laid out by the compiler.
type onceValue[T any] struct {
	once sync.Once
	f    func() T
	v    T
}

// get returns f's value, calling f the first time.
func (o *onceValue[T]) get() T {
	o.once.Do(func() { o.v = o.f() })
	return o.v
}
