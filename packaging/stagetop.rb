# Homebrew formula for stagetop.  Not yet published and never run.  OWNER,
# the url and the sha256 are placeholders for the project's repository and
# its release tarball; fill them in before publishing.  The url's tag is the
# file VERSION (tests/darwin/formula.test.sh checks it).  To try it from a
# local clone, point `head` at it (head "file:///path/to/stagetop",
# using: :git) and install with --HEAD (docs/macos.md).
class Stagetop < Formula
  desc "Terminal monitor for memory-hungry jobs: tree footprint, swap, memory level"
  homepage "https://github.com/OWNER/stagetop"
  url "https://github.com/OWNER/stagetop/archive/refs/tags/v0.4.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  head "https://github.com/OWNER/stagetop.git", branch: "main"

  depends_on "pkg-config" => :build
  depends_on "cjson" => :test # the tests' reference JSON parser; stagetop does not link it
  depends_on "ncurses"

  def install
    # The Makefile finds Homebrew's keg-only ncurses through pkg-config;
    # make it look in this formula's dependency.
    ENV.prepend_path "PKG_CONFIG_PATH", Formula["ncurses"].opt_lib/"pkgconfig"
    system "make", "stagetop", "CC=#{ENV.cc}"
    system "make", "install", "PREFIX=#{prefix}"
    # The one place the version is written, kept for `test do`: a --HEAD
    # install's version is HEAD-<sha>, never what --version prints.
    pkgshare.install "VERSION"
  end

  test do
    assert_match "stagetop #{(pkgshare/"VERSION").read.strip}", shell_output("#{bin}/stagetop --version")
    # A job that exits at once: watching it must work and end with its code.
    system bin/"stagetop", "--headless", "--interval", "0.05", "--", "/usr/bin/true"
  end
end
