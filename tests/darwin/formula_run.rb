# formula_run.rb FORMULA PREFIX VERSION_STRING: loads the Homebrew formula
# with a minimal stand-in for Homebrew's Formula class (only what the
# formula calls: the class-level fields, ENV, system, and the `test do`
# helpers with Homebrew's meanings), then runs its `test do` as an install
# at PREFIX (bin/stagetop, share/stagetop/VERSION, the completions) whose version is
# VERSION_STRING, e.g. HEAD-1a2b3c4 for `brew install --HEAD`.  Exit 0 when
# the block passes.  `formula_run.rb FORMULA --describe` lists what it
# declares instead.  Plain Ruby 2.6 (macOS's /usr/bin/ruby) and later.
require "pathname"

class Formula
  class << self
    attr_reader :test_block, :fields
    def field(name, *args)
      (@fields ||= {})[name] = args
    end
    %i[desc homepage url sha256 head license].each { |f| define_method(f) { |*a| field(f, *a) } }
    # Each dependency as [kind, name, tags]: kind "depends_on" or
    # "uses_from_macos"; tags, e.g. [:build], from `"name" => :build`.
    attr_reader :deps
    def depends_on(spec)
      dep("depends_on", spec)
    end

    def uses_from_macos(spec, **)
      dep("uses_from_macos", spec)
    end

    def dep(kind, spec)
      name, tags = spec.is_a?(Hash) ? spec.first : [spec, []]
      (@deps ||= []) << [kind, name.to_s, Array(tags)]
    end

    def test(&blk)
      @test_block = blk
    end
  end

  def initialize(prefix, version)
    @prefix = Pathname(prefix)
    @version = version
  end
  attr_reader :prefix, :version
  def bin
    prefix/"bin"
  end

  def pkgshare
    prefix/"share/stagetop"
  end

  # Homebrew's Formula#bash_completion, #zsh_completion, #fish_completion
  # (Library/Homebrew/formula.rb): prefix/"etc/bash_completion.d",
  # share/"zsh/site-functions", share/"fish/vendor_completions.d".
  def bash_completion
    prefix/"etc/bash_completion.d"
  end

  def zsh_completion
    prefix/"share/zsh/site-functions"
  end

  def fish_completion
    prefix/"share/fish/vendor_completions.d"
  end

  def assert_match(want, got)
    ok = want.is_a?(Regexp) ? want.match?(got) : got.include?(want)
    raise "assert_match: #{want.inspect} not in #{got.inspect}" unless ok
  end

  def shell_output(cmd, status = 0)
    out = `#{cmd}`
    raise "#{cmd}: exit #{$?.exitstatus}, expected #{status}" unless $?.exitstatus == status
    out
  end

  def system(*cmd)
    raise "#{cmd.join(" ")} failed" unless Kernel.system(*cmd.map(&:to_s))
  end
end

load ARGV[0]
# formula_run.rb FORMULA --describe: the fields and dependencies, one a line
# ("dep KIND NAME TAG,..." and "field NAME VALUE"), for formula.test.sh.
if ARGV[1] == "--describe"
  (Stagetop.deps || []).each { |k, n, t| puts "dep #{k} #{n} #{t.join(",")}".rstrip }
  (Stagetop.fields || {}).each { |k, v| puts "field #{k} #{v.first}" }
  exit 0
end
f = Stagetop.new(ARGV[1], ARGV[2])
f.instance_eval(&Stagetop.test_block)
puts "test do: passed with version #{ARGV[2]}"
