// The file system of the test directory as a node sees it (docs/reference/results.md,
// hosts[].file_system): the mount from mountinfo text, and a GlusterFS client graph.
#include <catch2/catch.hpp>

#include "report/mount_survey.hpp"

using pio::harness::mount_of;
using pio::harness::parse_volfile;
using pio::harness::volfile_text;

namespace {

const char *const kMountinfo =
    "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
    "42 22 7:0 / /tmp/lab/ext4/mnt rw,relatime shared:5 - ext4 /dev/loop0 rw,data=journal\n"
    "43 22 0:41 / /tmp/lab/vol\\040one/mnt rw,relatime shared:6 - fuse.glusterfs "
    "10.78.0.1:piovol rw,user_id=0,group_id=0,default_permissions,allow_other\n"
    "44 42 0:50 / /tmp/lab/ext4/mnt rw,nosuid - tmpfs over rw,size=1024k\n"
    "45 22 0:51 / /tmp/lab/ext4/mntx rw - xfs /dev/loop1 rw,allocsize=65536k\n";

} // namespace

TEST_CASE("the mount of a directory is the longest mount point above it, the last stacked one",
          "[provenance][mounts]") {
  const auto root = mount_of(kMountinfo, "/home/me");
  CHECK(root.mount_point == "/");
  CHECK(root.type == "ext4");
  CHECK(root.source == "/dev/vda");
  // /tmp/lab/ext4/mnt has an ext4 mount with a tmpfs mounted over it: the tmpfs is what a path
  // below it reaches. /tmp/lab/ext4/mntx is another mount point, not a directory under it.
  const auto over = mount_of(kMountinfo, "/tmp/lab/ext4/mnt/dir");
  CHECK(over.type == "tmpfs");
  CHECK(over.super_options == "rw,size=1024k");
  const auto x = mount_of(kMountinfo, "/tmp/lab/ext4/mntx");
  CHECK(x.type == "xfs");
  CHECK(x.super_options == "rw,allocsize=65536k");
}

TEST_CASE("a FUSE mount gives its type and subtype, and mountinfo's escapes are undone",
          "[provenance][mounts]") {
  const auto fs = mount_of(kMountinfo, "/tmp/lab/vol one/mnt/t-1");
  CHECK(fs.mount_point == "/tmp/lab/vol one/mnt");
  CHECK(fs.type == "fuse");
  CHECK(fs.subtype == "glusterfs");
  CHECK(fs.source == "10.78.0.1:piovol");
  CHECK(fs.mount_options == "rw,relatime");
  CHECK(fs.super_options == "rw,user_id=0,group_id=0,default_permissions,allow_other");
  CHECK(mount_of(kMountinfo, "/tmp/lab/ext4/mnt").subtype.empty());
}

TEST_CASE("a GlusterFS volfile parses into its translators and prints back the same",
          "[provenance][mounts]") {
  const std::string text = "volume piovol-client-0\n"
                           "    type protocol/client\n"
                           "    option remote-host 10.78.0.1\n"
                           "    option process-uuid CTX_ID:d0e8 HOST:fslab-c1\n"
                           "end-volume\n"
                           "\n"
                           "volume piovol-write-behind\n"
                           "    type performance/write-behind\n"
                           "    subvolumes piovol-client-0 piovol-client-1\n"
                           "end-volume\n";
  const auto graph = parse_volfile(text);
  REQUIRE(graph.size() == 2);
  CHECK(graph[0].name == "piovol-client-0");
  CHECK(graph[0].type == "protocol/client");
  REQUIRE(graph[0].options.size() == 2);
  CHECK(graph[0].options[0] ==
        std::make_pair(std::string("remote-host"), std::string("10.78.0.1")));
  // an option's value runs to the end of its line
  CHECK(graph[0].options[1].second == "CTX_ID:d0e8 HOST:fslab-c1");
  CHECK(graph[1].type == "performance/write-behind");
  CHECK(graph[1].subvolumes == std::vector<std::string>{"piovol-client-0", "piovol-client-1"});
  const auto again = parse_volfile(volfile_text(graph));
  REQUIRE(again.size() == graph.size());
  for (std::size_t i = 0; i < graph.size(); ++i) {
    CHECK(again[i].name == graph[i].name);
    CHECK(again[i].type == graph[i].type);
    CHECK(again[i].options == graph[i].options);
    CHECK(again[i].subvolumes == graph[i].subvolumes);
  }
  CHECK(parse_volfile("").empty());
}
