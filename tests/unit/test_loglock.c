// SPDX-License-Identifier: GPL-2.0
/* logplay and the master's creates on the same host: logplay holds the log
 * lock shared, so it never maps a file mkfile has logged but not mapped
 * yet.  Processes of their own, each with its own open of the device (its
 * own lock); the mock's maps are per process, but a mapped file has its
 * size, which a second MAP_CREATE refuses (EEXIST), as famfs.ko does. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "th.h"

static void open_own(struct th *t, struct famfs_fs *fs)
{
	if (famfs_fs_open_dev(t->img, true, fs))
		_exit(10);
	snprintf(fs->mpt, sizeof(fs->mpt), "%s", t->mpt);
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* logplay waits while another process holds the lock exclusively */
static void test_logplay_waits(void **state)
{
	struct th *t = *state;
	int locked[2], release[2], done[2], st;
	pid_t holder, player;
	char c;

	assert_int_equal(pipe(locked), 0);
	assert_int_equal(pipe(release), 0);
	assert_int_equal(pipe(done), 0);
	holder = fork();
	assert_true(holder >= 0);
	if (!holder) {
		struct famfs_fs fs;

		alarm(10);		/* never outlive a failed test */
		close(release[1]);	/* EOF when the test is gone */
		close(locked[0]);
		open_own(t, &fs);
		if (famfs_fs_lock(&fs))
			_exit(11);
		if (write(locked[1], "L", 1) != 1 || read(release[0], &c, 1) != 1)
			_exit(12);
		famfs_fs_unlock(&fs);
		famfs_fs_close(&fs);
		_exit(0);
	}
	assert_int_equal(read(locked[0], &c, 1), 1);
	player = fork();
	assert_true(player >= 0);
	if (!player) {
		struct famfs_logplay_result r;
		struct famfs_fs fs;
		unsigned char n;

		alarm(10);
		close(release[1]);
		open_own(t, &fs);
		if (famfs_logplay(&fs, false, &r))
			_exit(13);
		n = (unsigned char)r.created_files;
		if (write(done[1], &n, 1) != 1)
			_exit(14);
		_exit(r.errors + r.conflicts ? 15 : 0);
	}
	/* the holder "creates" a file meanwhile: logged, not yet mapped */
	sleep_ms(300);
	assert_int_equal(waitpid(player, &st, WNOHANG), 0);	/* still waiting */
	th_append_file(t, "late", 4 * MiB, 2 * MiB, 1);
	assert_int_equal(write(release[1], "R", 1), 1);
	assert_int_equal(waitpid(holder, &st, 0), holder);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(waitpid(player, &st, 0), player);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(read(done[0], &c, 1), 1);
	assert_int_equal(c, 1);		/* it saw the entry logged meanwhile */
	for (int i = 0; i < 2; i++) {
		close(locked[i]);
		close(release[i]);
		close(done[i]);
	}
}

/* (test_shared_with_shared, "two logplays do not wait for each other", is
 * gone: that was issue 15.4's race.  Replayers now take the lock
 * exclusively: logplay/replay_lock_exclusive.) */

#define NCREATE 60

/* mkfile in a loop while logplay runs in a loop: every create succeeds,
 * nothing conflicts, fsck is clean */
static void test_create_while_playing(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result fr;
	pid_t creator, player;
	int st;

	th_free(t);
	*state = t = th_new(256 * MiB, 2 * MiB);
	creator = fork();
	assert_true(creator >= 0);
	if (!creator) {
		struct famfs_fs fs;
		int bad = 0;

		alarm(60);
		open_own(t, &fs);
		for (int i = 0; i < NCREATE; i++) {
			char p[32];
			int fd;

			snprintf(p, sizeof(p), "c%d", i);
			fd = famfs_file_create(&fs, p, 4096, 0644, 0, 0);
			if (fd < 0)
				bad++;
			else
				close(fd);
		}
		_exit(bad > 100 ? 100 : bad);
	}
	player = fork();
	assert_true(player >= 0);
	if (!player) {
		struct famfs_logplay_result r;
		unsigned long bad = 0;

		alarm(60);
		for (int round = 0; round < 400; round++) {
			struct famfs_fs fs;

			open_own(t, &fs);
			if (famfs_logplay(&fs, false, &r))
				_exit(20);
			/* every file is the creator's: one this logplay
			 * created (or failed to map) was caught between its
			 * log append and its MAP_CREATE.  (Conflicts are not
			 * counted: this process's mock does not know the
			 * creator's maps, so mapped files look foreign.) */
			bad += r.created_files + r.errors + r.bad_entries;
			famfs_fs_close(&fs);
			if (kill(getppid(), 0))
				break;
		}
		_exit(bad > 100 ? 100 : (int)bad);
	}
	assert_int_equal(waitpid(creator, &st, 0), creator);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);	/* no failed create */
	assert_int_equal(waitpid(player, &st, 0), player);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);	/* never in between */
	assert_int_equal(famfs_log_next(t->fs.log), NCREATE);
	assert_int_equal(famfs_fsck(&t->fs, &fr), 0);
	assert_int_equal(fr.problems, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_logplay_waits, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_create_while_playing, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("loglock", tests, NULL, NULL);
}
