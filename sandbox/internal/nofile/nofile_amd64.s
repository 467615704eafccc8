//go:build linux

#include "textflag.h"

// func getrlimit(resource int, lim *[2]uint64) int
TEXT ·getrlimit(SB),NOSPLIT,$0-24
	MOVQ	resource+0(FP), DI
	MOVQ	lim+8(FP), SI
	MOVQ	$97, AX // SYS_getrlimit
	SYSCALL
	MOVQ	AX, ret+16(FP)
	RET
