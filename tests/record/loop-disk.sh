# loop-disk.sh: sourced by the root tests that record a private loop device (record/test-record.sh,
# app/test-live.sh). Defines:
#   need_root_tracefs TOOL...   skips (77) without root, tracefs (mounted if missing) or a tool
#   loop_disk SIZE              a loop device over a file in $tmp (direct I/O), ext4 mounted on
#                               $mnt, bfq when the kernel has it: sets dev, name, majmin
#   loop_disk_cleanup           kills the readers whose shells' pids are in $tmp/*.pid, unmounts,
#                               detaches and removes $tmp (the EXIT trap)
# The caller sets tmp (mktemp -d) and defines skip and fail.
dev= name= majmin=
mnt=$tmp/mnt

need_root_tracefs () {
  local T=/sys/kernel/tracing tool
  [ "$(id -u)" = 0 ] || skip "needs root (tracefs instances and loop devices)"
  [ -d $T/instances ] || mount -t tracefs nodev $T 2>/dev/null || skip "no tracefs"
  [ -d $T/instances ] || skip "no tracefs"
  for tool in losetup mkfs.ext4 "$@"; do
    command -v "$tool" >/dev/null || skip "no $tool"
  done
}

loop_disk () {
  truncate -s "$1" "$tmp/disk.img"
  dev=$(losetup --direct-io=on -f --show "$tmp/disk.img") || skip "no free loop device"
  mkfs.ext4 -q "$dev"
  mkdir -p "$mnt"
  mount "$dev" "$mnt"
  name=$(basename "$dev")
  if grep -q bfq /sys/block/$name/queue/scheduler; then echo bfq > /sys/block/$name/queue/scheduler; fi
  majmin=$(tr : , < /sys/block/$name/dev)
}

loop_disk_cleanup () {
  local f
  for f in "$tmp"/*.pid; do
    [ -f "$f" ] || continue
    kill "$(cat "$f")" 2>/dev/null || true
    pkill -P "$(cat "$f")" 2>/dev/null || true
  done
  for _ in $(seq 50); do fuser -m "$mnt" >/dev/null 2>&1 || break; sleep 0.1; done
  if mountpoint -q "$mnt" 2>/dev/null; then umount "$mnt" || umount -l "$mnt" || true; fi
  if [ -n "$dev" ]; then losetup -d "$dev" || true; fi
  rm -rf "$tmp"
}
