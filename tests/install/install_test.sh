#!/usr/bin/env bash
# textedge as a package: installs the static build BUILD_DIR and a shared build into temporary
# prefixes, builds examples/ against each with CMake (find_package) and with pkg-config and a
# plain g++ command line, runs every consumer on models/qwen3, compiles each installed header
# alone, and checks that the shared library exports textedge's public API and nothing else.
#
#   tests/install/install_test.sh SOURCE_DIR BUILD_DIR [CXX]
#
# The shared build lives in BUILD_DIR/install-shared and is kept, so later runs are incremental.
# It is not optimized: what this test checks (the install tree, linking, the exported symbols, a
# run of the example) does not depend on it, and -O0 compiles the library in about two thirds of
# the time of -O3 (2026-12-02, loaded host: bpe.cpp 6.7 s against 10.2 s, jinja/render.cpp 3.0
# against 5.6 s; header parsing is most of the rest), which on a fresh 2-core machine is CI time.
set -euo pipefail

source_dir=$(realpath "$1")
build_dir=$(realpath "$2")
cxx=${3:-g++}
model=$source_dir/models/qwen3
jobs=$(nproc)

work=$(mktemp -d /tmp/textedge-install.XXXXXX)
trap 'rm -rf "$work"' EXIT

step() { printf '\n== %s\n' "$*"; }
fail() {
  printf 'FAILED: %s\n' "$*" >&2
  exit 1
}

# check_exports LIB: the dynamic symbols LIB defines, demangled, must all be in textedge:: but
# not in textedge::detail:: (with typeinfo and vtables of such classes allowed), and must include
# the public API. Prints what is wrong and returns 1.
check_exports() {
  local lib=$1 symbols outside missing=() name
  symbols=$(nm -D --defined-only "$lib" | c++filt | cut -d' ' -f3-)
  outside=$(grep -E '^(typeinfo name for |typeinfo for |vtable for )?textedge::detail::' <<<"$symbols" || true)
  outside+=$'\n'$(sed -E 's/^(typeinfo name for |typeinfo for |vtable for )//' <<<"$symbols" | grep -Ev '^textedge::' || true)
  outside=$(grep -v '^$' <<<"$outside" || true)
  for name in 'textedge::Tokenizer::load(' 'textedge::Tokenizer::encode(' 'textedge::ChatTemplate::apply[abi:cxx11](' \
    'textedge::TextStream::step(' 'textedge::version()' 'typeinfo for textedge::Error' 'vtable for textedge::LoadError'; do
    grep -qF "$name" <<<"$symbols" || missing+=("$name")
  done
  printf '%s: %d dynamic symbols defined\n' "$lib" "$(grep -c . <<<"$symbols")"
  if [[ -n $outside ]]; then
    printf '  exported outside textedge:: (or in textedge::detail::), %d, e.g.:\n' "$(grep -c . <<<"$outside")"
    head -5 <<<"$outside" | cut -c1-160 | sed 's/^/    /'
  fi
  if ((${#missing[@]})); then
    printf '  public API not exported: %s\n' "${missing[*]}"
  fi
  [[ -z $outside && ${#missing[@]} -eq 0 ]]
}

# run_consumer BINARY: the example must succeed on the real model.
run_consumer() {
  local output
  output=$("$1" "$model" 2>&1) || fail "$1 $model exited with an error:"$'\n'"$output"
  grep -q '^ok$' <<<"$output" || fail "$1 did not print ok:"$'\n'"$output"
  printf '%s: ran on models/qwen3: %s\n' "$1" "$(grep '^streamed:' <<<"$output")"
}

step "the check of exported symbols rejects a library that exports more than textedge's API"
cat >"$work/leaky.cpp" <<'EOF'
#include <vector>
namespace textedge {
namespace detail { int helper(int x) { return x + 1; } }
std::vector<int> numbers(int n) { std::vector<int> v; for (int i = 0; i < n; ++i) v.push_back(detail::helper(i)); return v; }
}
EOF
"$cxx" -std=c++20 -shared -fPIC -o "$work/libleaky.so" "$work/leaky.cpp"
if leaky_report=$(check_exports "$work/libleaky.so"); then
  fail "check_exports accepted libleaky.so, which exports std:: and textedge::detail:: symbols"
fi
echo "$leaky_report"
for symbol in 'textedge::detail::helper(int)' 'std::vector<int' 'public API not exported: textedge::Tokenizer::load('; do
  grep -qF "$symbol" <<<"$leaky_report" || fail "check_exports did not report $symbol in libleaky.so"
done
echo "rejected, naming what it should"

step "install the static build $build_dir"
cmake --install "$build_dir" --prefix "$work/static" >"$work/install-static.log" ||
  fail "cmake --install $build_dir (see above)"$'\n'"$(cat "$work/install-static.log")"

step "build and install the shared library ($build_dir/install-shared)"
cmake -S "$source_dir" -B "$build_dir/install-shared" -DBUILD_SHARED_LIBS=ON -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS=-O0 \
  -DCMAKE_CXX_COMPILER="$cxx" -DTEXTEDGE_BUILD_CLI=OFF -DTEXTEDGE_BUILD_TESTS=OFF \
  -DTEXTEDGE_BUILD_BENCHMARKS=OFF -DTEXTEDGE_BUILD_PYTHON=OFF >"$work/configure-shared.log" ||
  fail "configuring the shared build:"$'\n'"$(cat "$work/configure-shared.log")"
cmake --build "$build_dir/install-shared" -j "$jobs" --target textedge >"$work/build-shared.log" ||
  fail "building the shared library:"$'\n'"$(tail -50 "$work/build-shared.log")"
cmake --install "$build_dir/install-shared" --prefix "$work/shared" >"$work/install-shared.log" ||
  fail "installing the shared build:"$'\n'"$(cat "$work/install-shared.log")"

for kind in static shared; do
  prefix=$work/$kind
  libdir=$(dirname "$(find "$prefix" -name textedge.pc)")/..
  libdir=$(realpath "$libdir")
  step "$kind install: $prefix"
  for file in include/textedge/textedge.hpp include/textedge/version.hpp include/textedge/export.hpp \
    "${libdir#"$prefix"/}/cmake/textedge/textedgeConfig.cmake" \
    "${libdir#"$prefix"/}/cmake/textedge/textedgeConfigVersion.cmake" "${libdir#"$prefix"/}/pkgconfig/textedge.pc"; do
    [[ -f $prefix/$file ]] || fail "$kind install lacks $file"
  done
  if [[ $kind == static ]]; then
    [[ -f $libdir/libtextedge.a ]] || fail "static install lacks libtextedge.a"
    [[ -z $(find "$prefix" -name 'libtextedge.so*') ]] || fail "static install holds a libtextedge.so"
  else
    [[ -f $libdir/libtextedge.so ]] || fail "shared install lacks libtextedge.so"
    shared_libdir=$libdir
  fi
  echo "headers, library, CMake package and textedge.pc are installed"

  # Each public header compiles alone, warning-free, from the installed tree.
  headers=0
  for header in "$prefix"/include/textedge/*.hpp; do
    printf '#include <textedge/%s>\n' "$(basename "$header")" >"$work/header.cpp"
    "$cxx" -std=c++20 -Wall -Wextra -Werror -fsyntax-only -I"$prefix/include" "$work/header.cpp" ||
      fail "the installed textedge/$(basename "$header") does not compile on its own"
    headers=$((headers + 1))
  done
  echo "each of the $headers installed headers compiles alone"

  # CMake: find_package(textedge 0.2 REQUIRED) with the prefix on CMAKE_PREFIX_PATH.
  cmake -S "$source_dir/examples" -B "$work/example-cmake-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CXX_COMPILER="$cxx" >"$work/example-cmake-$kind.log" 2>&1 ||
    fail "configuring examples/ against the $kind install:"$'\n'"$(cat "$work/example-cmake-$kind.log")"
  cmake --build "$work/example-cmake-$kind" >>"$work/example-cmake-$kind.log" 2>&1 ||
    fail "building examples/ against the $kind install with CMake:"$'\n'"$(cat "$work/example-cmake-$kind.log")"
  run_consumer "$work/example-cmake-$kind/textedge_example"

  # pkg-config and a plain g++ command line (a static library also needs its private dependencies).
  if [[ $kind == static ]]; then
    pkg_config_args=(--cflags --libs --static textedge) extra_flags=()
  else
    pkg_config_args=(--cflags --libs textedge) extra_flags=("-Wl,-rpath,$libdir")
  fi
  pkg_flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config "${pkg_config_args[@]}") ||
    fail "pkg-config ${pkg_config_args[*]} failed for the $kind install"
  echo "g++ -std=c++20 examples/main.cpp \$(pkg-config ${pkg_config_args[*]}) ${extra_flags[*]}"
  # shellcheck disable=SC2086 # pkg-config's output is a list of words
  "$cxx" -std=c++20 -o "$work/example-pkg-config-$kind" "$source_dir/examples/main.cpp" $pkg_flags "${extra_flags[@]}" ||
    fail "building examples/main.cpp against the $kind install with pkg-config"
  run_consumer "$work/example-pkg-config-$kind"

  # The consumers use the library they were built against.
  for binary in "$work/example-cmake-$kind/textedge_example" "$work/example-pkg-config-$kind"; do
    linked=$(ldd "$binary" | grep libtextedge || true)
    if [[ $kind == static && -n $linked ]]; then
      fail "$binary links a shared libtextedge: $linked"
    elif [[ $kind == shared && $linked != *"$libdir/libtextedge.so"* ]]; then
      fail "$binary does not load $libdir/libtextedge.so (ldd: ${linked:-no libtextedge})"
    fi
  done
  if [[ $kind == static ]]; then
    echo "neither consumer loads a libtextedge.so"
  else
    echo "both consumers load $libdir/libtextedge.so"
  fi
done

step "exported symbols of the installed shared library"
check_exports "$(realpath "$shared_libdir/libtextedge.so")" ||
  fail "the shared library exports more than textedge's public API, or not all of it"
echo "only textedge's public API is exported"

printf '\ninstall test passed\n'
