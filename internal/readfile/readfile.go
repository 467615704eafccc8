// Package readfile reads small files without Go's network poller.
//
// os.Open offers every file it opens to the poller, and the first file
// starts it: an epoll instance, an eventfd, and from then on an idle
// thread parked in epoll_wait, woken at exit. A regular file is never
// pollable, so a process that only reads files gains nothing from it.
// The per-call hook reads its rules and the agent's settings this way,
// and starts no poller at all (1–2% of its run and a context switch on
// a two-core VM; docs/BENCHMARKS.md, fifth pass).
package readfile

// Read returns the contents of the file at path, reading at most limit+1
// bytes, so a caller can tell a file over limit from one at it (as
// io.ReadAll(io.LimitReader(f, limit+1)) would). Errors are
// *fs.PathError, as os.Open and Read return them.
func Read(path string, limit int64) ([]byte, error) { return read(path, limit) }
