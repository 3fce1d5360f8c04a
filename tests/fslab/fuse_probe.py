"""One process on an emulated host holding a file of the volume open, for test_coherence.py: it
creates or opens the file, then answers commands on stdin, one per line, until stdin ends.

  fuse_probe.py create PATH BYTE   create PATH (O_CREAT, as ROMIO's rank 0 does) with 64 KiB of
                                   BYTE (two hex digits) and keep that fd open
  fuse_probe.py open PATH          open PATH (O_RDWR, as the other ranks do) and keep it open

  read        -> the byte found at every offset of the first 64 KiB ("22"), or "mixed"
  write BYTE  -> "written", after writing 64 KiB of BYTE at offset 0

It prints "ready" once the file is open."""
import os
import sys

SIZE = 64 * 1024


def main():
    command, path = sys.argv[1], sys.argv[2]
    if command == "create":
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        os.pwrite(fd, bytes([int(sys.argv[3], 16)]) * SIZE, 0)
    else:
        fd = os.open(path, os.O_RDWR)
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if words == ["read"]:
            data = os.pread(fd, SIZE, 0)
            found = set(data)
            print(f"{data[0]:02x}" if len(data) == SIZE and len(found) == 1 else "mixed",
                  flush=True)
        elif words[:1] == ["write"]:
            os.pwrite(fd, bytes([int(words[1], 16)]) * SIZE, 0)
            print("written", flush=True)
        else:
            print(f"unknown command {line.strip()!r}", flush=True)
    os.close(fd)


if __name__ == "__main__":
    main()
