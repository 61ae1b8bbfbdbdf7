# profiles: pmem nvdimm-devdax
# timeout: 150
# famfs df, fsck, getmap, rm, mv, chmod and chown -j: the output is one valid JSON document
# (checked strictly by jget, tools/famfs-cli/build/jget: json-c, no trailing
# bytes) with the documented keys, and its numbers agree with the device,
# the text output and each other; errors print no JSON and exit 2/3.
# On nvdimm-devdax (no famfs mount) only the device-level checks run.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
MiB=1048576
export FAMFS_HOST_ID_FILE=/tmp/json-host-uuid
mkdir -p $M

t_rc() {	# t_rc ID EXPECTED_RC CMD...: stdout in $OUT, stderr in $ERR
	_id=$1 _want=$2; shift 2
	OUT=$("$@" 2>/tmp/json-err); _rc=$?; ERR=$(cat /tmp/json-err)
	if [ "$_rc" = "$_want" ]; then t_pass "$_id"
	else t_fail "$_id" "'$*' exited $_rc, expected $_want: $(echo "$ERR" | tail -n 2 | tr '\n' ' ')"; fi
}
j() { echo "$OUT" | jget "$@"; }	# j [-t|-k|-n] PATH: from the last t_rc
t_json() {	# t_json ID: the last output is one valid JSON object
	if [ "$(j -t .)" = object ]; then t_pass "$1"
	else t_fail "$1" "not one JSON object: $(echo "$OUT" | head -c 200 | tr '\n' ' ')"; fi
}
t_keys() {	# t_keys ID PATH KEY...: exactly these keys, in any order
	_id=$1 _p=$2; shift 2
	_have=$(j -k "$_p" | sort | tr '\n' ' ')
	_want=$(for k; do echo "$k"; done | sort | tr '\n' ' ')
	t_eq "$_id" "$_want" "$_have"
}

umount $M 2>/dev/null
t_rc mkfs 0 famfs mkfs -f --loglen 4m $DEV
bytes=$(echo "$OUT" | sed -n "s,^famfs mkfs: $DEV: \([0-9]*\) bytes.*,\1,p")

# ---- df on the device ----------------------------------------------------------------
t_rc df-dev 0 famfs df -j $DEV
t_json df-dev-json
t_keys df-keys . target mount_point device fs_uuid master_uuid role size reserved \
	used free unknown free_1g_runs alloc_unit log files directories corrupt_entries devices \
	coherence mount_coherence
t_keys df-log-keys .log size entries capacity free_entries format slot_size used
# one device: the primary alone, its figures the same as the sums; not
# mounted: attached/failed null
t_eq df-one-device 1 "$(j -n .devices)"
t_keys df-device-keys .devices[0] index role path attached failed mount_failed size reserved \
	used free unknown free_1g_runs
t_eq df-device0-primary primary "$(j .devices[0].role)"
t_eq df-device0-size-is-size "$(j .size)" "$(j .devices[0].size)"
t_eq df-device0-unmounted-attached null "$(j .devices[0].attached)"
t_eq df-size-is-mkfs-size "$bytes" "$(j .size)"
t_eq df-reserved "$((2 * MiB + 4 * MiB))" "$(j .reserved)"
t_eq df-empty-used 0 "$(j .used)"
t_eq df-free "$((bytes - 6 * MiB))" "$(j .free)"
t_eq df-log-capacity 16380 "$(j .log.capacity)"	# 4 MiB of 256-byte slots, the header's 4 off
t_eq df-log-entries 0 "$(j .log.entries)"
t_eq df-role master "$(j .role)"
t_eq df-device "$DEV" "$(j .device)"
t_eq df-unmounted-no-mpt null "$(j .mount_point)"
t_eq df-uuid-is-host-master "$(cat $FAMFS_HOST_ID_FILE)" "$(j .master_uuid)"
t_rc fsck-dev 0 famfs fsck -j $DEV
t_json fsck-dev-json
t_keys fsck-keys . target clean superblock_valid entries files directories \
	corrupt_entries problems used free problem_list devices
t_eq fsck-one-device 1 "$(j -n .devices)"
t_eq fsck-device0-ok true "$(j .devices[0].ok)"
t_eq fsck-clean true "$(j .clean)"
t_eq fsck-no-problems 0 "$(j -n .problem_list)"
t_rc df-missing 2 famfs df -j /nonexistent
t_eq df-missing-no-json "" "$OUT"
t_ok df-missing-named sh -c 'echo "$1" | grep -q "/nonexistent: No such file"' - "$ERR"

if [ "$FAMFS_DEV_MODE" = devdax ]; then
	t_rc mkfs-kill 0 famfs mkfs -k $DEV
	t_rc fsck-killed-dev 3 famfs fsck -j $DEV
	t_json fsck-killed-json
	t_eq fsck-killed-sb-invalid false "$(j .superblock_valid)"
	exit 0
fi

# ---- a populated mount -----------------------------------------------------------------
t_rc mount 0 famfs mount $DEV $M
famfs mkdir -p $M/d
famfs mkfile -s 3m $M/d/f
famfs mkfile -s 1 "$M/we\"ird \\ name"
t_rc df-mpt 0 famfs df -j $M
t_json df-mpt-json
t_eq df-mpt-mount-point $M "$(j .mount_point)"
t_eq df-mpt-device $DEV "$(j .device)"
t_eq df-entries 3 "$(j .log.entries)"
# a compact log (the default): 4 MiB = 16380 slots, one per entry here
t_eq df-log-format "compact 256 3" "$(j .log.format) $(j .log.slot_size) $(j .log.used)"
t_eq df-free-entries 16377 "$(j .log.free_entries)"
t_eq df-files 2 "$(j .files)"
t_eq df-dirs 1 "$(j .directories)"
t_eq df-used "$((6 * MiB))" "$(j .used)"
t_eq df-adds-up "$bytes" "$(($(j .used) + $(j .free) + $(j .reserved)))"
df_mpt=$OUT
t_rc df-mounted-dev 0 famfs df -j $DEV	# through the mount
t_eq df-dev-equals-mpt "$(echo "$df_mpt" | jget .used) $(echo "$df_mpt" | jget .log)" \
	"$(j .used) $(j .log)"
t_rc df-text 0 famfs df $M
t_ok df-text-entries sh -c "echo \"\$1\" | grep -q 'log entries  3 in 3 of 16380 slots'" - "$OUT"

t_rc fsck-mpt 0 famfs fsck -j $M
t_eq fsck-mpt-entries "3 2 1" "$(j .entries) $(j .files) $(j .directories)"
t_eq fsck-used-as-df "$(echo "$df_mpt" | jget .used)" "$(j .used)"

t_rc getmap 0 famfs getmap -j $M/d/f
t_json getmap-json
t_keys getmap-keys . path type size extent_type extents identity
t_eq getmap-type regular "$(j .type)"
t_eq getmap-size "$((3 * MiB))" "$(j .size)"
t_eq getmap-extents 1 "$(j -n .extents)"
t_eq getmap-extent-length "$((4 * MiB))" "$(j '.extents[0].length')"
off=$(famfs getmap $M/d/f | sed -n 's/.*0: offset \(0x[0-9a-f]*\) .*/\1/p')
t_eq getmap-offset-as-text "$((off))" "$(j '.extents[0].offset')"
t_rc getmap-odd-path 0 famfs getmap -j "$M/we\"ird \\ name"
t_eq getmap-odd-path-roundtrip "$M/we\"ird \\ name" "$(j .path)"
t_rc getmap-log 0 famfs getmap -j $M/.meta/.log
t_eq getmap-log-type log "$(j .type)"
t_eq getmap-log-extent "$((2 * MiB)) $((4 * MiB))" "$(j '.extents[0].offset') $(j '.extents[0].length')"
echo plain > /tmp/json-plain
t_rc getmap-not-famfs 2 famfs getmap -j /tmp/json-plain
t_eq getmap-not-famfs-no-json "" "$OUT"

# ---- a corrupt log entry (entry 1 at 2 MiB + 1 KiB header + 256; byte 4 of its ctime) --
umount $M
poke $((2 * MiB + 1024 + 256 + 28)) 255
t_rc fsck-corrupt 3 famfs fsck -j $DEV
t_json fsck-corrupt-json
t_eq fsck-corrupt-not-clean false "$(j .clean)"
t_eq fsck-corrupt-counted "1 1" "$(j .corrupt_entries) $(j .problems)"
t_ok fsck-corrupt-listed sh -c "echo \"\$1\" | jget '.problem_list[0]' | grep -q 'log entry 1'" - "$OUT"
t_rc df-corrupt 0 famfs df -j $DEV
t_eq df-corrupt-counted 1 "$(j .corrupt_entries)"
t_eq df-corrupt-extents-free "$((2 * MiB))" "$(j .used)"

# ---- an invalid superblock: still JSON, exit 3 ------------------------------------------
poke 200 1
t_rc fsck-bad-sb 3 famfs fsck -j $DEV
t_json fsck-bad-sb-json
t_eq fsck-bad-sb-invalid "false false" "$(j .superblock_valid) $(j .clean)"
t_rc df-bad-sb 2 famfs df -j $DEV
t_eq df-bad-sb-no-json "" "$OUT"
poke 200 0

# ---- rm, mv, chmod, chown -j (a new file system) -----------------------------------------
t_rc ns-mkfs 0 famfs mkfs -f $DEV
t_rc ns-mount 0 famfs mount $DEV $M
famfs mkdir -p $M/d $M/e
famfs mkfile -s 1m $M/d/g $M/d/h $M/e/x
t_rc mv-json 0 famfs mv -j $M/d/g $M/d/g2
t_json mv-json-object
t_keys mv-keys . ok paths
t_keys mv-path-keys .paths[0] path destination ok errors entries
t_keys mv-entry-keys .paths[0].entries[0] index action type path to mode uid gid
t_eq mv-json-entry "true rename file $M/d/g $M/d/g2 $M/d/g2" \
	"$(j .ok) $(j .paths[0].entries[0].action) $(j .paths[0].entries[0].type) $(j .paths[0].entries[0].path) $(j .paths[0].entries[0].to) $(j .paths[0].destination)"
t_eq mv-json-no-errors 0 "$(j -n .paths[0].errors)"
t_rc chmod-json 0 famfs chmod -j 0600 $M/d/g2
t_eq chmod-json-mode "setattr 0600 null null" \
	"$(j .paths[0].entries[0].action) $(j .paths[0].entries[0].mode) $(j .paths[0].entries[0].uid) $(j .paths[0].entries[0].to)"
t_rc chown-json 0 famfs chown -j 12:34 $M/d/g2
t_eq chown-json-ids "12 34 null" \
	"$(j .paths[0].entries[0].uid) $(j .paths[0].entries[0].gid) $(j .paths[0].entries[0].mode)"
# one PATH refused: still one object, its error listed, exit 2 as without -j
t_rc rm-json-partial 2 famfs rm -j $M/d/h $M/d/nothere
t_json rm-json-partial-object
t_eq rm-json-partial-ok "false true false" "$(j .ok) $(j .paths[0].ok) $(j .paths[1].ok)"
t_eq rm-json-partial-entries "1 0" "$(j -n .paths[0].entries) $(j -n .paths[1].entries)"
t_ok rm-json-partial-error sh -c "echo \"\$1\" | jget '.paths[1].errors[0]' | grep -q 'nothere: not in the log'" - "$OUT"
t_ok rm-json-partial-stderr sh -c "echo \"\$1\" | grep -q 'nothere: not in the log'" - "$ERR"
t_rc rm-r-json 0 famfs rm -r -j $M/e
t_eq rm-r-json-entries "2 delete $M/e/x file $M/e directory" \
	"$(j -n .paths[0].entries) $(j .paths[0].entries[0].action) $(j .paths[0].entries[0].path) $(j .paths[0].entries[0].type) $(j .paths[0].entries[1].path) $(j .paths[0].entries[1].type)"
t_ok rm-r-json-index-order test "$(j .paths[0].entries[0].index)" -lt "$(j .paths[0].entries[1].index)"
t_rc chmod-bad-json 1 famfs chmod -j u+q $M/d/g2
t_eq chmod-bad-no-json "" "$OUT"
t_rc ns-fsck 0 famfs fsck $M
umount $M
exit 0
