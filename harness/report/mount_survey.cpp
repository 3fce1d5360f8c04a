#include "report/mount_survey.hpp"

#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace pio::harness {

namespace {

/// At most `limit` bytes of a file (a /proc, /sys or .meta file has no size to ask), or "".
std::string read_text(const std::string &path, std::size_t limit = 1 << 20) {
  std::ifstream in(path, std::ios::binary);
  std::string text(limit, '\0');
  in.read(text.data(), static_cast<std::streamsize>(limit));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

/// mountinfo's escapes (\040 for a space, \011, \012, \134) undone.
std::string unescape(const std::string &s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\\' && i + 3 < s.size() && s.find_first_not_of("01234567", i + 1) >= i + 4) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  return out;
}

/// Is `dir` the mount point `mnt` or below it?
bool under(const std::string &dir, const std::string &mnt) {
  if (mnt == "/")
    return true;
  return dir.compare(0, mnt.size(), mnt) == 0 &&
         (dir.size() == mnt.size() || dir[mnt.size()] == '/');
}

/// The directory of a file name, made absolute against the working directory and resolved.
std::string real_dir(const std::string &file) {
  const auto slash = file.find_last_of('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : file.substr(0, slash));
  char buf[PATH_MAX];
  return ::realpath(dir.c_str(), buf) ? std::string(buf) : std::string();
}

void add_loop_device(FileSystemInfo &fs) {
  const std::string prefix = "/dev/loop";
  if (fs.source.compare(0, prefix.size(), prefix) != 0)
    return;
  const std::string sys = "/sys/block/" + fs.source.substr(5) + "/loop/";
  fs.loop_backing_file = trimmed(read_text(sys + "backing_file"));
  fs.loop_direct_io = trimmed(read_text(sys + "dio")) == "1";
}

void add_gluster_graph(FileSystemInfo &fs) {
  const std::string meta = fs.mount_point + (fs.mount_point == "/" ? "" : "/") + ".meta/";
  fs.volume_graph = parse_volfile(read_text(meta + "graphs/active/volfile"));
  const auto cmdline = nlohmann::json::parse(read_text(meta + "cmdline"), nullptr, false);
  if (cmdline.is_object() && cmdline.contains("Cmdlinestr") && cmdline["Cmdlinestr"].is_string())
    fs.client_command_line = cmdline["Cmdlinestr"].get<std::string>();
}

} // namespace

FileSystemInfo mount_of(const std::string &mountinfo, const std::string &dir) {
  FileSystemInfo best;
  std::istringstream in(mountinfo);
  std::string line;
  while (std::getline(in, line)) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos)
      continue;
    std::istringstream left(line.substr(0, dash)), right(line.substr(dash + 3));
    std::string id, parent, devno, root, mnt, opts, type, source, super;
    left >> id >> parent >> devno >> root >> mnt >> opts;
    right >> type >> source >> super;
    mnt = unescape(mnt);
    if (!under(dir, mnt) || mnt.size() < best.mount_point.size())
      continue;
    best = FileSystemInfo{};
    best.mount_point = mnt;
    best.mount_options = opts;
    best.source = unescape(source);
    best.super_options = super;
    const auto dot = type.find('.');
    const bool fuse = type.compare(0, 4, "fuse") == 0 && dot != std::string::npos;
    best.type = fuse ? type.substr(0, dot) : type;
    best.subtype = fuse ? type.substr(dot + 1) : "";
  }
  return best;
}

FileSystemInfo file_system_of(const std::string &test_file) {
  const std::string dir = real_dir(test_file);
  if (dir.empty())
    return {};
  FileSystemInfo fs = mount_of(read_text("/proc/self/mountinfo"), dir);
  add_loop_device(fs);
  if (fs.type == "fuse" && fs.subtype == "glusterfs")
    add_gluster_graph(fs);
  return fs;
}

std::vector<VolumeTranslator> parse_volfile(const std::string &text) {
  std::vector<VolumeTranslator> graph;
  std::istringstream in(text);
  std::string line;
  VolumeTranslator *open = nullptr;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (word == "volume") {
      graph.emplace_back();
      open = &graph.back();
      words >> open->name;
    } else if (open && word == "type") {
      words >> open->type;
    } else if (open && word == "option") {
      std::string key, value;
      words >> key;
      std::getline(words >> std::ws, value);
      open->options.emplace_back(key, trimmed(value));
    } else if (open && word == "subvolumes") {
      while (words >> word)
        open->subvolumes.push_back(word);
    } else if (word == "end-volume") {
      open = nullptr;
    }
  }
  return graph;
}

std::string volfile_text(const std::vector<VolumeTranslator> &graph) {
  std::ostringstream out;
  for (const auto &t : graph) {
    out << "volume " << t.name << "\n    type " << t.type << "\n";
    for (const auto &[key, value] : t.options)
      out << "    option " << key << " " << value << "\n";
    if (!t.subvolumes.empty()) {
      out << "    subvolumes";
      for (const auto &s : t.subvolumes)
        out << " " << s;
      out << "\n";
    }
    out << "end-volume\n\n";
  }
  return out.str();
}

} // namespace pio::harness
