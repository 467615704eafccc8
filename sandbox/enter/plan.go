package enter

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Plan is what the outside half (sandbox.Run) hands the inside half,
// besides the Landlock ruleset's descriptor: everything worked out, so
// that the inside half only applies it.
type Plan struct {
	Args          []string
	Env           []string
	Pins          []string
	ReadOnly      []string
	LandlockFlags uint32
	// ListenPort, when not 0, is the port of the proxy inside the
	// sandbox's own network namespace: the inside half brings up its
	// loopback interface, listens on 127.0.0.1:ListenPort and hands the
	// listener back to the outside half before the command runs.
	ListenPort uint16
	// Seccomp is the assembled filter, as (code, jt, jf, k) instructions.
	Seccomp [][4]uint32
}

// maxPlan bounds the plan the inside half reads (the command's arguments
// and environment are most of it).
const maxPlan = 16 << 20

// Encode lays the plan out for the inside half, which decodes it before
// anything else runs there: a length, the Landlock flags, the listening
// port, the filter, then four lists of strings, each as a count and
// length-prefixed strings (all numbers 32-bit little-endian). It is what JSON carried,
// without JSON's reflection in the process on the critical path.
func (p *Plan) Encode() []byte {
	b := make([]byte, 4, 4096)
	b = binary.LittleEndian.AppendUint32(b, p.LandlockFlags)
	b = binary.LittleEndian.AppendUint32(b, uint32(p.ListenPort))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(p.Seccomp)))
	for _, in := range p.Seccomp {
		for _, v := range in {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
	}
	for _, list := range [][]string{p.Args, p.Env, p.Pins, p.ReadOnly} {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(list)))
		for _, s := range list {
			b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
			b = append(b, s...)
		}
	}
	binary.LittleEndian.PutUint32(b, uint32(len(b)-4))
	return b
}

// Read reads one encoded plan from r.
func Read(r io.Reader) (*Plan, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint32(head[:])
	if n > maxPlan {
		return nil, fmt.Errorf("plan of %d bytes", n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	d := planDecoder{b: b}
	p := &Plan{LandlockFlags: d.u32()}
	if port := d.u32(); port <= 0xffff {
		p.ListenPort = uint16(port)
	} else {
		d.bad = true
	}
	if k := d.u32(); k <= uint32(len(d.b)/16) {
		p.Seccomp = make([][4]uint32, k)
		for i := range p.Seccomp {
			p.Seccomp[i] = [4]uint32{d.u32(), d.u32(), d.u32(), d.u32()}
		}
	} else {
		d.bad = true
	}
	for _, list := range []*[]string{&p.Args, &p.Env, &p.Pins, &p.ReadOnly} {
		*list = d.strings()
	}
	if d.bad || len(d.b) != 0 {
		return nil, errors.New("malformed plan")
	}
	return p, nil
}

// planDecoder reads an encoded plan's fields; bad records a short or
// malformed one.
type planDecoder struct {
	b   []byte
	bad bool
}

func (d *planDecoder) u32() uint32 {
	if len(d.b) < 4 {
		d.bad = true
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b)
	d.b = d.b[4:]
	return v
}

func (d *planDecoder) strings() []string {
	k := d.u32()
	if k > uint32(len(d.b)/4) {
		d.bad = true
		return nil
	}
	out := make([]string, 0, k)
	for range k {
		n := d.u32()
		if d.bad || n > uint32(len(d.b)) {
			d.bad = true
			return nil
		}
		out = append(out, string(d.b[:n]))
		d.b = d.b[n:]
	}
	return out
}
