#pragma once

#include <QJsonObject>
#include <QTextStream>

#include <cstdint>

namespace posenc {

// `posenc check` against reading its file as `cat FILE > /dev/null` does (docs/ARCHITECTURE.md,
// Performance): a `rows` x `cols` float32 sinusoidal table (the bench's default 1,048,576 x 1024)
// written to a temporary directory, read through and checked in turn `repeats` times, then
// removed. The keys check_over_read (the best check over the best read), check_ms,
// check_read_ms and their medians; check_rope_over_read, check_rope_ms, check_rope_read_ms and
// their medians, the same of RoPE's cos table as transformers returns it in float32 (its angles
// formed in float32, rope_theta 10000, head_dim the width); check_array_over_file, the command `posenc check --json` on the
// same table in memory as the Python module's posenc.check reads a numpy array (check_array_ms)
// over the command on the file (check_command_ms), and its median; and check --config's
// (ConfigCheckBenchmark); empty, with the reason on `err`, when the file cannot be written or
// checked.
QJsonObject checkOverRead(std::int64_t rows, std::int64_t cols, int repeats, int threads, QTextStream &err);

// The table the bench checks unless --max-len or --d-model choose another.
constexpr std::int64_t kCheckRows = std::int64_t(1) << 20;
constexpr std::int64_t kCheckCols = 1024;

} // namespace posenc
