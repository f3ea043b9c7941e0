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

  # No license yet: the project has no LICENSE file, and Homebrew's audit
  # requires one ("Formulae in homebrew/core must specify a license."); when
  # the project has one, its SPDX id goes here as `license "..."`
  # (tests/darwin/formula.test.sh checks the two agree).

  depends_on "pkgconf" => :build # the Linux build finds ncursesw with it

  # Apple's curses on macOS, Homebrew's ncurses elsewhere: ncurses is
  # `keg_only :provided_by_macos`, and Homebrew's audit of a new formula asks
  # for `uses_from_macos` over `depends_on` for such a dependency
  # (formula_auditor.rb, "is provided by macOS").  macOS 14 and later ship
  # ncurses 6.0 with the wide-character API (docs/macos.md, "Curses on a Mac").
  uses_from_macos "ncurses"

  def install
    # CURSES=apple: the Makefile would otherwise take an ncurses keg it finds
    # installed (one this formula does not depend on on macOS).
    args = ["CC=#{ENV.cc}"]
    args << "CURSES=apple" if OS.mac?
    system "make", "stagetop", *args
    # The completions: zsh's and fish's go where Homebrew's zsh_completion
    # and fish_completion are (share/zsh/site-functions,
    # share/fish/vendor_completions.d); bash's into bash_completion.
    system "make", "install", "PREFIX=#{prefix}", "BASHCOMPDIR=#{bash_completion}",
           "ZSHCOMPDIR=#{zsh_completion}", "FISHCOMPDIR=#{fish_completion}", *args
    # The one place the version is written, kept for `test do`: a --HEAD
    # install's version is HEAD-<sha>, never what --version prints.
    pkgshare.install "VERSION"
  end

  test do
    assert_match "stagetop #{(pkgshare/"VERSION").read.strip}", shell_output("#{bin}/stagetop --version")
    # A job that exits at once: watching it must work and end with its code.
    system bin/"stagetop", "--headless", "--interval", "0.05", "--", "/usr/bin/true"
    # The shell completions are installed, for the stagetop command.
    assert_match "complete -o filenames -F _stagetop stagetop", (bash_completion/"stagetop").read
    assert_match "#compdef stagetop", (zsh_completion/"_stagetop").read
    assert_match "complete -c stagetop", (fish_completion/"stagetop.fish").read
  end
end
