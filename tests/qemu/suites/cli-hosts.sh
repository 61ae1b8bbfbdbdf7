# profiles: two-hosts two-hosts-cxl
# timeout: 300
# The host table (format revision 3, HOSTS; issue 29 item 4) across two
# hosts: a (master) makes it with famfs hosts init, both register when they
# mount or replay, famfs hosts -j lists both slots on both hosts; a client
# may not init, arm or evict; init's table is armed; a evicts b by host
# uuid and the generation it saw (a generation b does not have is refused;
# b's replay stops), b "reboots" (a new boot id) and registers a new
# generation; a torn slot is listed torn and evicted by slot; b's slot
# evicted by slot is fenced and kept, zeroed at the second; its fences are
# listed and forgotten (evict --forget); a header copy torn leaves the
# other; both torn, the header is written anew by famfs hosts repair,
# hosts replay meanwhile.  (An older tool's refusal of
# INCOMPAT_HOSTS: unit/hostsentry/older_tool, unit/nsentry.)
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
mkdir -p $M
[ "$FAMFS_DEV_MODE" = devdax ] && famfs bind "$DEV"
export FAMFS_HOST_SETTLE_MS=200
export FAMFS_TEST_SETTLE=1

# hj PATH: famfs hosts -j's value at PATH
hj() { famfs hosts -j $M 2>/dev/null | jget "$1" 2>/dev/null; }
# idx_where KEY VALUE: the index in .slots of the slot whose KEY is VALUE
idx_where() {
	_n=$(famfs hosts -j $M | jget -n .slots) _i=0
	while [ "$_i" -lt "${_n:-0}" ]; do
		[ "$(hj .slots[$_i].$1)" = "$2" ] && { echo $_i; return 0; }
		_i=$((_i + 1))
	done
	return 1
}
# field UUID KEY: KEY of that host's slot; slot_of UUID: its slot number
field() { _x=$(idx_where host_uuid "$1") && hj .slots[$_x].$2; }
slot_of() { field "$1" slot; }
nslots() { famfs hosts -j $M | jget -n .slots; }

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f $DEV
	t_rc mount 0 famfs mount $DEV $M
	t_rc list-no-table 2 famfs hosts $M
	t_has list-no-table-says "no host table"
	t_rc init 0 famfs hosts init $M
	t_rc init-twice 2 famfs hosts init $M
	t_has init-twice-says "exists already"
	t_ok meta-hosts test -f $M/.meta/.hosts
	# init's table is armed (made before any client mounted)
	t_eq init-armed true "$(hj .armed)"
	t_rc list-armed 0 famfs hosts $M
	t_has list-armed-text "armed yes"
	t_rc arm-armed 0 famfs hosts arm $M
	t_has arm-armed-says "armed already"
	t_rc fsck-after-init 0 famfs fsck $M
	t_rc logplay-registers 0 famfs logplay $M
	A=$(cat /etc/famfs/host-uuid)
	echo "$A" > "$FAMFS_SYNC/hosts-a-uuid"
	t_eq master-slot-role master "$(field "$A" role)"
	t_eq master-slot-state registered "$(field "$A" state)"
	t_eq master-slot-generation 1 "$(field "$A" generation)"
	t_rc mkfile 0 famfs mkfile -s 2m $M/f1
	sync_post hosts-a-ready
	sync_wait hosts-b-mounted 120 || exit 0
	B=$(cat "$FAMFS_SYNC/hosts-b-uuid")
	t_eq master-sees-two 2 "$(nslots)"
	t_eq master-sees-client client "$(field "$B" role)"
	t_rc list-text 0 famfs hosts $M
	t_has list-text-client "$B .*client"
	# the name hash and boot id shown (short; -j in full: review r42f)
	t_has list-text-namehash "NAMEHASH *BOOT"
	t_eq json-name-hash 16 "$(printf %s "$(field "$B" name_hash)" | wc -c)"
	# evict b by uuid, naming a generation b does not have: refused
	t_rc evict-gen-stale 2 famfs hosts evict --generation 5 "$B" $M
	t_has evict-gen-stale-says "registered again"
	t_eq evict-gen-stale-none 0 "$(hj .nevicted)"
	t_rc evict-gen-slot-usage 1 famfs hosts evict --generation 1 --slot 0 $M
	# evict b by uuid, the generation seen: its slot is listed evicted
	t_rc evict-uuid 0 famfs hosts evict --generation 1 "$B" $M
	t_has evict-uuid-names-gen "generation 1 evicted"
	t_eq evicted-state evicted "$(field "$B" state)"
	t_eq evicted-nevicted 1 "$(hj .nevicted)"
	t_rc evict-unknown 2 famfs hosts evict 00000000-0000-0000-0000-0000000000aa $M
	t_rc evict-usage 1 famfs hosts evict $M
	sync_post hosts-a-evicted
	sync_wait hosts-b-rebooted 120 || exit 0
	t_eq rebooted-generation 2 "$(field "$B" generation)"
	t_eq rebooted-state registered "$(field "$B" state)"
	# a torn slot: bytes in a free slot that verify as nothing
	SA=$(slot_of "$A") SB=$(slot_of "$B")
	N=0
	while [ "$N" = "$SA" ] || [ "$N" = "$SB" ]; do N=$((N + 1)); done
	printf 'torn' | dd of=$M/.meta/.hosts bs=1 seek=$((8192 + N * 256 + 20)) conv=notrunc 2>/dev/null
	sync $M/.meta/.hosts
	X=$(idx_where slot "$N")
	t_eq torn-listed torn "$(hj .slots[${X:-99}].state)"
	t_rc torn-text 0 famfs hosts $M
	t_has torn-text-says "torn"
	t_rc evict-torn-slot 0 famfs hosts evict --slot $N $M
	t_eq torn-gone 2 "$(nslots)"
	# by slot: refused -- b took over its fenced registration's slot at
	# its reboot, and a second evict --slot is meant for the fenced boot
	# (review rfence F5); by generation: b's registration fenced, its
	# record kept (b must not register again in its boot); the eviction
	# by slot then zeroes it
	t_rc evict-b-slot-refused 2 famfs hosts evict --slot "$SB" $M
	t_has evict-b-slot-refused-says "evict --generation 2"
	t_rc evict-b-slot 0 famfs hosts evict --generation 2 "$B" $M
	t_has evict-b-slot-says "generation 2 evicted"
	t_eq b-slot-fenced evicted "$(field "$B" state)"
	t_eq b-slot-kept 2 "$(nslots)"
	t_rc evict-b-slot-again 0 famfs hosts evict --slot "$SB" $M
	t_has evict-b-slot-again-says "zeroed"
	t_eq b-slot-gone 1 "$(nslots)"
	# the fences of b (generations 1 and 2) listed; --forget drops them
	# (b is taken as down for good: its slot is zeroed)
	t_eq fences-listed 2 "$(famfs hosts -j $M | jget -n .evicted)"
	t_eq fence-names-b "$B" "$(hj .evicted[0].host_uuid)"
	t_rc forget-usage 1 famfs hosts evict --forget "$B" --slot 0 $M
	t_rc forget-b 0 famfs hosts evict --forget "$B" $M
	t_has forget-b-says "forgotten"
	t_eq forget-nevicted 0 "$(hj .nevicted)"
	t_rc forget-again 2 famfs hosts evict --forget "$B" $M
	t_has forget-again-says "no fence names"
	# header writes so far: init (copy 0), evict b (1), evict --slot b
	# (0), forget (1).  The last one cut short: the copy before it is the
	# header (b's two fences), and repair is refused (a copy verifies)
	t_rc repair-refused 2 famfs hosts repair $M
	t_has repair-refused-says "verifies"
	printf 'torn' | dd of=$M/.meta/.hosts bs=1 seek=$((4096 + 2000)) conv=notrunc 2>/dev/null
	sync $M/.meta/.hosts
	t_eq torn-copy-other 2 "$(hj .nevicted)"
	t_rc torn-copy-repair-refused 2 famfs hosts repair $M
	# both copies torn: hosts still register, famfs hosts repair writes
	# it anew
	printf 'torn' | dd of=$M/.meta/.hosts bs=1 seek=2000 conv=notrunc 2>/dev/null
	sync $M/.meta/.hosts
	t_rc torn-hdr-list 0 famfs hosts $M
	t_has torn-hdr-list-says "famfs hosts repair"
	# a header not understood is shown as unknown, not "0 evicted,
	# armed no"; -j names why (review r39 L4)
	t_has torn-hdr-list-unknown "unknown evicted, armed unknown"
	t_eq torn-hdr-json-error yes "$(e=$(hj .header_error); [ -n "$e" ] && [ "$e" != null ] && echo yes)"
	t_rc torn-hdr-force-usage 1 famfs hosts --force $M
	t_rc torn-hdr-logplay 0 famfs logplay $M
	t_rc repair 0 famfs hosts repair $M
	t_has repair-says "written anew"
	t_eq repair-json-no-error null "$(famfs hosts -j $M 2>/dev/null | jget .header_error 2>/dev/null || echo null)"
	t_eq repair-nevicted 0 "$(hj .nevicted)"
	t_eq repair-not-armed false "$(hj .armed)"
	t_rc repair-arm 0 famfs hosts arm $M
	t_eq repair-armed-again true "$(hj .armed)"
	t_rc repair-logplay 0 famfs logplay $M
	t_rc fsck-end 0 famfs fsck $M
	sync_post hosts-a-done
	sync_wait hosts-b-done 120
	umount $M
	exit 0
fi

# host b: the client
sync_wait hosts-a-ready 180 || exit 0
A=$(cat "$FAMFS_SYNC/hosts-a-uuid")
t_rc client-mount 0 famfs mount $DEV $M
B=$(cat /etc/famfs/host-uuid)
echo "$B" > "$FAMFS_SYNC/hosts-b-uuid"
t_ok client-meta-hosts test -f $M/.meta/.hosts
t_eq client-sees-two 2 "$(nslots)"
t_eq client-slot-role client "$(field "$B" role)"
t_eq client-slot-state registered "$(field "$B" state)"
t_eq client-slot-generation 1 "$(field "$B" generation)"
t_eq client-sees-master master "$(field "$A" role)"
t_rc client-init-refused 2 famfs hosts init $M
t_has client-init-says-why "is a client; only the master"
t_rc client-evict-refused 2 famfs hosts evict --slot 0 $M
t_has client-evict-says-why "is a client; only the master"
t_rc client-arm-refused 2 famfs hosts arm $M
t_has client-arm-says-why "is a client: only the master arms"
t_eq client-sees-armed true "$(hj .armed)"
t_rc client-logplay 0 famfs logplay $M
sync_post hosts-b-mounted
sync_wait hosts-a-evicted 120 || { sync_post hosts-b-done; exit 0; }
t_rc client-evicted-stops 2 famfs logplay $M
t_has client-evicted-says "evicted"
umount $M
# a new boot id: a new registration
cat /proc/sys/kernel/random/uuid > /tmp/hosts-newboot
t_rc client-reboot-mount 0 env FAMFS_BOOT_ID_FILE=/tmp/hosts-newboot famfs mount $DEV $M
t_eq client-new-generation 2 "$(field "$B" generation)"
sync_post hosts-b-rebooted
sync_wait hosts-a-done 120
umount $M
sync_post hosts-b-done
exit 0
