#include "textflag.h"

// func cloneVM(flags uintptr, stack uintptr, p *childPlan) (pid uintptr, errno syscall.Errno)
//
// clone(2) with the child on its own stack: the child calls childMain(p),
// which never returns; the parent returns the child's pid or the errno.
TEXT ·cloneVM(SB),NOSPLIT|NOFRAME,$0-40
	MOVQ	flags+0(FP), DI
	MOVQ	stack+8(FP), SI
	MOVQ	p+16(FP), R12
	MOVQ	$0, DX
	MOVQ	$0, R10
	MOVQ	$0, R8
	MOVL	$56, AX // SYS_clone
	SYSCALL
	CMPQ	AX, $0
	JEQ	child
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	MOVQ	$0, pid+24(FP)
	NEGQ	AX
	MOVQ	AX, errno+32(FP)
	RET
ok:
	MOVQ	AX, pid+24(FP)
	MOVQ	$0, errno+32(FP)
	RET
child:
	// SP is the top of the child's stack (SI).
	SUBQ	$16, SP
	MOVQ	R12, 0(SP)
	CALL	·childMain(SB)
	INT	$3
