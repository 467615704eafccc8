// nsfloor: the kernel's part of a sandbox start, and nothing else, as a
// reference line for bench/sandbox. It starts COMMAND in a new user and
// mount namespace with its user and group mapped, makes the mounts
// private, bind-mounts .git/hooks and .git/config of the current
// directory read-only (as toolgate-sandbox does in a git workspace), and
// execs it: no Landlock, no seccomp, no plan, no listing, no runtime.
//
//	cc -O2 -static -o nsfloor nsfloor.c && ./nsfloor /bin/true
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

static char stack[1 << 16];
static char **command;
static int ready[2];

static void put(const char *path, const char *text) {
	int fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, text, strlen(text)) < 0) {
		perror(path);
		_exit(125);
	}
	close(fd);
}

static int child(void *arg) {
	char c;
	(void)arg;
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) // the parent has written the maps
		_exit(125);
	setsid();
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		perror("mount --make-rprivate /");
		_exit(125);
	}
	const char *ro[] = {".git/hooks", ".git/config", NULL};
	for (int i = 0; ro[i]; i++) {
		if (mount(ro[i], ro[i], NULL, MS_BIND, NULL) ||
		    mount(NULL, ro[i], NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL)) {
			perror(ro[i]);
			_exit(125);
		}
	}
	execvp(command[0], command);
	perror(command[0]);
	_exit(127);
}

int main(int argc, char **argv) {
	char path[64], map[64];
	int status;
	if (argc < 2) {
		fprintf(stderr, "usage: nsfloor COMMAND [ARGS...]\n");
		return 125;
	}
	command = argv + 1;
	if (pipe(ready))
		return 125;
	pid_t pid = clone(child, stack + sizeof stack, CLONE_NEWUSER | CLONE_NEWNS | SIGCHLD, NULL);
	if (pid < 0) {
		perror("clone");
		return 125;
	}
	snprintf(path, sizeof path, "/proc/%d/uid_map", pid);
	snprintf(map, sizeof map, "%d %d 1\n", getuid(), getuid());
	put(path, map);
	snprintf(path, sizeof path, "/proc/%d/setgroups", pid);
	put(path, "deny");
	snprintf(path, sizeof path, "/proc/%d/gid_map", pid);
	snprintf(map, sizeof map, "%d %d 1\n", getgid(), getgid());
	put(path, map);
	close(ready[0]);
	if (write(ready[1], "x", 1) != 1)
		return 125;
	close(ready[1]);
	if (waitpid(pid, &status, 0) < 0)
		return 125;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
