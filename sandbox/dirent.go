package sandbox

// dirEntry is one entry of a listing: its name and what it is.
type dirEntry struct {
	name string
	typ  entryType
}

// entryType is what a directory entry is, as far as the walk cares.
type entryType uint8

const (
	typeOther entryType = iota
	typeDir
	typeSymlink
)
