# profiles: pmem nvdimm
# timeout: 120
# famfs.ko, the v1 map ioctls: every invalid map gets its own errno and leaves
# the file unmapped, maps round-trip through MAP_GET/GETEXT, overlapping maps
# are refused, only CAP_SYS_ADMIN creates maps (progs/module_ioctl.c).
. "$FAMFS_SRC/tests/qemu/lib.sh"

# run_prog PROG ARGS...: the program's PASS/FAIL/SKIP lines become ours.
run_prog() {
	_p=$1
	"$@" > /tmp/$_p.out 2>&1
	_rc=$?
	while IFS= read -r _l; do
		case $_l in
		"PASS "*) t_pass "${_l#PASS }" ;;
		"FAIL "*) _l=${_l#FAIL }; t_fail "${_l%%: *}" "${_l#*: }" ;;
		"SKIP "*) _l=${_l#SKIP }; t_skip "${_l%%: *}" "${_l#*: }" ;;
		*) echo "$_p: $_l" ;;
		esac
	done < /tmp/$_p.out
	[ $_rc -le 1 ] || t_fail "$_p-exit" "$_p exited with status $_rc"
}

if ! grep -q '^famfs ' /proc/modules; then
	t_skip loaded "famfs.ko is not loaded"
	exit 0
fi
MPT=/tmp/famfs-ioctl
mkdir -p $MPT
if ! out=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_fail mount "$out"
	exit 0
fi
t_pass mount
run_prog module_ioctl $MPT "$FAMFS_DEV"
t_ok umount umount $MPT
