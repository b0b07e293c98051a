#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers and what follows them (libFuzzer, clang, with
# AddressSanitizer and UndefinedBehaviorSanitizer). Not part of `npm test`: a campaign runs
# for minutes to hours. Usage:
#   scripts/fuzz.sh TARGET [SECONDS] [CORPUS_DIR...]
# TARGET: recording | point_cloud | scenario | dgli (tests/fuzz/fuzz_TARGET.cpp). The core is
# compiled once into build-fuzz/; crashes are written to build-fuzz/crashes/TARGET/ and can be
# replayed with build-fuzz/fuzz_TARGET FILE. Seed corpora: any folders of sample files (e.g.
# ../shared/data/mocap); the working corpus is build-fuzz/corpus/TARGET.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?"usage: scripts/fuzz.sh recording|point_cloud|scenario|dgli [SECONDS] [CORPUS_DIR...]"}
seconds=${2:-600}
shift $(( $# < 2 ? $# : 2 ))
[ -f "tests/fuzz/fuzz_$target.cpp" ] || { echo "no fuzz target tests/fuzz/fuzz_$target.cpp" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "clang++ is needed (apt install clang)" >&2; exit 2; }

out=build-fuzz
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
       -DEIGEN_MPL2_ONLY -DJSON_NOEXCEPTION -DEIGEN_DONT_VECTORIZE -Iwasm/core -isystem /usr/include/eigen3)
mkdir -p "$out/obj" "$out/corpus/$target" "$out/crashes/$target"
# a changed header may change any object: then every source is compiled again
if [ ! -f "$out/obj/.built" ] || [ -n "$(find wasm/core -name '*.h' -newer "$out/obj/.built" | head -n 1)" ]; then
  rm -f "$out"/obj/*.o
fi
objects=()
for source in $(find wasm/core -name '*.cpp' | sort); do
  object="$out/obj/$(echo "${source#wasm/core/}" | tr / _ | sed 's/\.cpp$/.o/')"
  objects+=("$object")
  [ -f "$object" ] && [ "$object" -nt "$source" ] && continue
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
  echo "compiling $source"
  clang++ "${flags[@]}" -fsanitize=fuzzer-no-link -c "$source" -o "$object" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n; done
touch "$out/obj/.built"
clang++ "${flags[@]}" -fsanitize=fuzzer "tests/fuzz/fuzz_$target.cpp" "${objects[@]}" -o "$out/fuzz_$target"
# -rss_limit_mb: the targets cap the sizes they go on with; -timeout: one input, seconds
exec "$out/fuzz_$target" "$out/corpus/$target" "$@" -max_total_time="$seconds" -timeout=20 \
  -rss_limit_mb=3072 -max_len=65536 -artifact_prefix="$out/crashes/$target/" -print_final_stats=1
