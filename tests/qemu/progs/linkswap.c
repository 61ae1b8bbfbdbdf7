// SPDX-License-Identifier: GPL-2.0
/*
 * linkswap: the swap a local user who can write a directory makes between
 * root's mkdir of a new directory there and root's chmod/chown of it
 * (issue 27.2), made deterministic: CMD runs under ptrace and, when its
 * first mkdir(2)/mkdirat(2) of a name NAME -- or famfs.ko's FAMFSIOC_NS
 * MKDIR of it, the famfs tool's mkdir (issue 29) -- returns 0, DIR/NAME (the new
 * directory) is renamed to DIR/NAME.real and TARGET takes its place --
 * before CMD runs its next instruction:
 *	-s (default)	a symbolic link to TARGET (famfs.ko refuses symlinks:
 *			for other file systems, and the unit tests)
 *	-l		a hard link to the file TARGET (famfs has them)
 *	-d		the directory TARGET itself, renamed there
 *
 *   linkswap [-s|-l|-d] DIR NAME TARGET CMD [ARG...]
 *	exit status: CMD's (128 + N if killed by signal N); on stderr
 *	"linkswap: swapped DIR/NAME for TARGET" once it swapped,
 *	"linkswap: never swapped" if it did not.
 *
 * x86-64 only (the guests').  Only CMD's first thread is traced; famfs
 * makes directories from it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/famfs_ioctl.h>

/* the NUL-ended string at addr in pid, into buf (n bytes) */
static int peek_str(pid_t pid, unsigned long addr, char *buf, size_t n)
{
	struct iovec local = { buf, n - 1 }, remote = { (void *)addr, n - 1 };
	ssize_t got;

	/* one read may stop at a page the string does not reach: the
	 * bytes before it are enough for a path of a few components */
	got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	if (got <= 0) {
		remote.iov_len = local.iov_len = 4096 - (addr & 4095);
		if (local.iov_len > n - 1)
			local.iov_len = remote.iov_len = n - 1;
		got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	}
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	return 0;
}

/* the name of a FAMFSIOC_NS MKDIR whose argument is at addr in pid */
static int peek_ns_mkdir(pid_t pid, unsigned long addr, char *buf, size_t n)
{
	struct famfs_ioc_ns a;
	struct iovec local = { &a, sizeof(a) }, remote = { (void *)addr, sizeof(a) };

	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != sizeof(a) ||
	    a.op != FAMFS_NS_MKDIR || !a.name_len || a.name_len >= n)
		return -1;
	local.iov_base = buf;
	remote.iov_base = (void *)(unsigned long)a.name;
	local.iov_len = remote.iov_len = a.name_len;
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)a.name_len)
		return -1;
	buf[a.name_len] = '\0';
	return 0;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

int main(int argc, char **argv)
{
	const char *dir, *name, *target;
	struct __ptrace_syscall_info si;
	char path[4096], from[4200], to[4300];
	bool pending = false, swapped = false;
	int status, sig = 0, rc;
	char how = 's';
	pid_t pid;

	if (argc > 1 && argv[1][0] == '-' && strchr("sld", argv[1][1]) &&
	    argv[1][1] && !argv[1][2]) {
		how = argv[1][1];
		argv++, argc--;
	}
	if (argc < 5) {
		fprintf(stderr, "usage: linkswap [-s|-l|-d] DIR NAME TARGET CMD [ARG...]\n");
		return 2;
	}
	dir = argv[1], name = argv[2], target = argv[3];
	pid = fork();
	if (pid < 0) {
		perror("linkswap: fork");
		return 2;
	}
	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(127);
		raise(SIGSTOP);
		execvp(argv[4], argv + 4);
		perror(argv[4]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		fprintf(stderr, "linkswap: the command did not start\n");
		return 2;
	}
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)) {
		perror("linkswap: PTRACE_SETOPTIONS");
		return 2;
	}
	snprintf(from, sizeof(from), "%s/%s", dir, name);
	snprintf(to, sizeof(to), "%s/%s.real", dir, name);
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig)) {
			perror("linkswap: PTRACE_SYSCALL");
			return 2;
		}
		sig = 0;
		if (waitpid(pid, &status, 0) != pid) {
			perror("linkswap: waitpid");
			return 2;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (!WIFSTOPPED(status))
			continue;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			/* a signal for the command (not exec's SIGTRAP) */
			if (WSTOPSIG(status) != SIGTRAP)
				sig = WSTOPSIG(status);
			continue;
		}
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(si), &si) <= 0)
			continue;
		if (si.op == PTRACE_SYSCALL_INFO_ENTRY) {
			unsigned long a = si.entry.nr == SYS_mkdir ? si.entry.args[0] :
					  si.entry.nr == SYS_mkdirat ? si.entry.args[1] : 0;

			pending = !swapped && a && !peek_str(pid, a, path, sizeof(path)) &&
				  !strcmp(base(path), name);
			if (!swapped && si.entry.nr == SYS_ioctl &&
			    (unsigned int)si.entry.args[1] == FAMFSIOC_NS &&
			    !peek_ns_mkdir(pid, si.entry.args[2], path, sizeof(path)))
				pending = !strcmp(path, name);
		} else if (si.op == PTRACE_SYSCALL_INFO_EXIT && pending) {
			pending = false;
			if (si.exit.rval != 0)
				continue;
			rc = rename(from, to);
			if (!rc)
				rc = how == 'l' ? link(target, from) :
				     how == 'd' ? rename(target, from) :
				     symlink(target, from);
			if (rc) {
				fprintf(stderr, "linkswap: %s: %s\n", from, strerror(errno));
				continue;
			}
			swapped = true;
			fprintf(stderr, "linkswap: swapped %s for %s%s\n", from,
				how == 'l' ? "a hard link to " : how == 'd' ?
				"the directory " : "a symbolic link to ", target);
		}
	}
	if (!swapped)
		fprintf(stderr, "linkswap: never swapped\n");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
