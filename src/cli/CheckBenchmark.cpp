#include "CheckBenchmark.h"

#include "CheckCommand.h"
#include "ConfigCheckBenchmark.h"
#include "Interrupt.h"

#include "check/FamilyCheck.h"
#include "check/TableCheck.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/PositionalTable.h"
#include "core/Quantity.h"
#include "core/rope/RopeFrequencies.h"
#include "io/BufferRows.h"
#include "io/MemoryFiles.h"
#include "io/NpyWriter.h"
#include "io/TableFile.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <new>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

constexpr std::int64_t kWriteBytes = std::int64_t(64) << 20; // a block of rows written at once

// The tables the bench checks: the sinusoidal PE (posenc's default table) and RoPE's cos table as
// transformers returns it in float32 (rope_theta 10000, head_dim the width: the angles
// inv_freq @ position_ids formed in float32, then their cosines, cat(freqs, freqs)), the table
// engineers dump and whose check costs the most per cell.
enum class BenchTable { Sinusoidal, RopeCos };

// The table's .npy, a block of rows at a time.
bool writeTable(const QString &path, BenchTable kind, std::int64_t rows, std::int64_t cols, QTextStream &err)
{
    Params p;
    p.dModel = cols;
    p.maxLen = rows;
    p.memoryBudget = std::uint64_t(1) << 30;
    const std::int64_t blocrows = std::clamp<std::int64_t>(kWriteBytes / (4 * cols), 1, rows);
    const Engine engine(p);
    Params rope = p;
    rope.encoding = Encoding::Rope;
    RopeFrequencies::setHeadDim(rope, cols);
    const PositionalTable ropeCos(cols, RopeFrequencies::schedule(rope), Layout::Split, Angles::Float32);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        err << "posenc bench: " << path << ": " << file.errorString() << '\n';
        return false;
    }
    const QByteArray header = npyHeader(rows, cols);
    bool ok = file.write(header) == header.size();
    RowMatrixXf block(blocrows, cols);
    for (std::int64_t r = 0; ok && r < rows; r += blocrows) {
        const std::int64_t n = std::min(blocrows, rows - r);
        if (kind == BenchTable::Sinusoidal)
            engine.compute(Quantity::Pe, {r, n, 0, cols}, block.topRows(n));
        else
            ropeCos.fillValues({r, n, 0, cols}, block.topRows(n), PairValues::Cosines);
        const auto bytes = qint64(n * cols * qint64(sizeof(float)));
        ok = file.write(reinterpret_cast<const char *>(block.data()), bytes) == bytes;
    }
    if (!ok)
        err << "posenc bench: " << path << ": " << file.errorString() << '\n';
    return ok;
}

// What `cat FILE > /dev/null` does: read(2) through a 128 KiB buffer to the end.
bool readThrough(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY);
    if (fd < 0)
        return false;
    std::vector<char> buffer(std::size_t(128) << 10);
    ssize_t got = 0;
    while ((got = ::read(fd, buffer.data(), buffer.size())) > 0) { }
    ::close(fd);
    return got == 0;
}

bool check(const QString &path, int threads)
{
    const auto table = TableFile::open(MatrixSource {path, std::nullopt}, std::uint64_t(2) << 30);
    if (!table)
        return false;
    auto match = TableCheck::identify(*table.value(), {});
    if (!std::holds_alternative<TableMatch>(match))
        return false;
    TableCheck::StreamOptions options;
    options.threads = threads;
    const TableCheck::Verification v = TableCheck::verify(std::get<TableMatch>(match), *table.value(), options);
    return !v.error && v.deviatingCells == 0;
}

// The command `posenc check SOURCE --json`, as a user runs it: exit 0 for the correct table.
bool checkCommand(const QString &source, int threads)
{
    QString out, err;
    QTextStream outStream(&out), errStream(&err);
    return runCheckCommand({u"posenc"_s, source, u"--json"_s, u"--quiet"_s, u"--threads"_s, QString::number(threads)},
                           outStream, errStream)
        == 0;
}

// The file's table in memory, as the Python module checks a numpy array (MemoryFiles, BufferRows).
std::shared_ptr<const TableRows> tableInMemory(const QString &path, std::int64_t rows, std::int64_t cols,
                                               std::shared_ptr<std::vector<float>> &cells)
{
    // As a Python user holds it: the whole table (4 GiB at the default size), past the budget the
    // check itself keeps to; a machine without the memory skips this measurement only.
    try {
        cells = std::make_shared<std::vector<float>>(std::size_t(rows * cols));
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
    QFile file(path);
    const qint64 bytes = rows * cols * qint64(sizeof(float));
    if (!file.open(QIODevice::ReadOnly) || !file.seek(npyHeader(rows, cols).size())
        || file.read(reinterpret_cast<char *>(cells->data()), bytes) != bytes)
        return nullptr;
    BufferRows::ArrayView view;
    view.data = reinterpret_cast<const char *>(cells->data());
    view.shape = {rows, cols};
    view.strides = {cols * qint64(sizeof(float)), qint64(sizeof(float))};
    auto opened = BufferRows::open(view, u"<array>"_s, cells);
    return opened ? opened.value() : nullptr;
}

double msOf(const std::function<bool()> &run, bool &ok)
{
    QElapsedTimer timer;
    timer.start();
    ok = run() && ok;
    return double(timer.nsecsElapsed()) / 1e6;
}

// Identifying the widest head posenc writes, a 64 x 8192 RoPE cos table in memory: the fit reads a
// sample of a few hundred rows at most, so its cost grows with the columns alone, and no faster
// than columns x log(columns) (issue 62: 177 s at 8192 columns while the M-RoPE split search read
// pairs^2 angles). The best of `repeats`, or -1 when the table is not identified as RoPE's.
double identifyWideMs(int repeats)
{
    constexpr std::int64_t kHead = 8192, kRows = 64;
    // The table a family's facet names for this (FamilyCheck::wideBenchTable: RoPE's cos).
    Params p;
    QString table;
    for (const FamilySpec &family : Families::all()) {
        const FamilyCheck &check = FamilyChecks::of(family.encoding);
        if (check.wideBenchTable.isEmpty() || !check.fitTableWidth)
            continue;
        p.encoding = family.encoding;
        table = check.wideBenchTable;
        check.fitTableWidth(p, kHead);
        break;
    }
    const auto quantity = Quantities::fromName(table);
    if (!quantity)
        return -1.0;
    p.maxLen = kRows;
    const Engine engine(p);
    auto values = std::make_shared<RowMatrixXf>(kRows, kHead);
    engine.compute(*quantity, {0, kRows, 0, kHead}, *values);
    const MatrixRows rows(values, StoredType::Float32, table + u"-8192"_s);
    double best = -1.0;
    for (int i = 0; i < std::max(repeats, 1); ++i) {
        bool ok = true;
        const double ms = msOf(
            [&] {
                const auto match = TableCheck::identify(rows, {});
                const auto *m = std::get_if<TableMatch>(&match);
                return m && m->family == p.encoding;
            },
            ok);
        if (!ok)
            return -1.0;
        best = best < 0.0 ? ms : std::min(best, ms);
    }
    return best;
}

// The check of RoPE's float32 cos table against reading its file, as checkOverRead's of the
// sinusoid: the keys check_rope_ms, check_rope_read_ms, check_rope_over_read and their medians;
// none, with the reason on `err`, when the table cannot be written or is not checked correct.
QJsonObject ropeOverRead(const QString &path, std::int64_t rows, std::int64_t cols, int repeats, int threads,
                         QTextStream &err)
{
    if (!writeTable(path, BenchTable::RopeCos, rows, cols, err))
        return {};
    std::vector<double> read, checked;
    bool ok = true;
    msOf([&] { return readThrough(path) && check(path, threads); }, ok); // warm-up
    for (int i = 0; i < repeats && ok; ++i) {
        read.push_back(msOf([&] { return readThrough(path); }, ok));
        checked.push_back(msOf([&] { return check(path, threads); }, ok));
    }
    QFile::remove(path);
    if (!ok) {
        err << "posenc bench: check_rope_over_read: RoPE's cos table could not be read or was not checked correct\n";
        return {};
    }
    std::sort(read.begin(), read.end());
    std::sort(checked.begin(), checked.end());
    QJsonObject json;
    json[u"check_rope_read_ms"_s] = read.front();
    json[u"check_rope_ms"_s] = checked.front();
    json[u"check_rope_median_ms"_s] = checked[checked.size() / 2];
    json[u"check_rope_over_read"_s] = checked.front() / read.front();
    json[u"check_rope_over_read_median"_s] = checked[checked.size() / 2] / read[read.size() / 2];
    return json;
}

} // namespace

QJsonObject checkOverRead(std::int64_t rows, std::int64_t cols, int repeats, int threads, QTextStream &err)
{
    QTemporaryDir dir;
    if (!dir.isValid()) {
        err << "posenc bench: check_over_read: no temporary directory: " << dir.errorString() << '\n';
        return {};
    }
    const QString path = dir.filePath(u"check.npy"_s);
    // Its tables are gigabytes: a kill (SIGTERM, Ctrl+C) takes them with it.
    const RemovedIfKilled scratch(QFile::encodeName(path), QFile::encodeName(dir.path()));
    if (!writeTable(path, BenchTable::Sinusoidal, rows, cols, err))
        return {};
    // The command on the file and on the same table in memory, the Python module's posenc.check of
    // a numpy array: the same command with the array's rows read where they lie.
    std::shared_ptr<std::vector<float>> cells;
    MemoryFiles::Scope memory;
    const auto array = tableInMemory(path, rows, cols, cells);
    if (array)
        memory.addTable(array->name(), array);
    else
        err << "posenc bench: check_array_over_file: the table could not be read into memory (" << rows * cols * 4
            << " bytes)\n";
    // Round-robin, as the other measurements: the reads and the checks see the same drift.
    std::vector<double> read, checked, command, inMemory;
    bool ok = true;
    msOf([&] { return readThrough(path) && check(path, threads); }, ok); // warm-up
    for (int i = 0; i < repeats && ok; ++i) {
        read.push_back(msOf([&] { return readThrough(path); }, ok));
        checked.push_back(msOf([&] { return check(path, threads); }, ok));
        if (array) {
            command.push_back(msOf([&] { return checkCommand(path, threads); }, ok));
            inMemory.push_back(msOf([&] { return checkCommand(array->name(), threads); }, ok));
        }
    }
    QFile::remove(path);
    if (!ok) {
        err << "posenc bench: check_over_read: the table could not be read or checked\n";
        return {};
    }
    std::sort(command.begin(), command.end());
    std::sort(inMemory.begin(), inMemory.end());
    std::sort(read.begin(), read.end());
    std::sort(checked.begin(), checked.end());
    QJsonObject json;
    json[u"check_rows"_s] = double(rows);
    json[u"check_cols"_s] = double(cols);
    json[u"check_read_ms"_s] = read.front();
    json[u"check_read_median_ms"_s] = read[read.size() / 2];
    json[u"check_ms"_s] = checked.front();
    json[u"check_median_ms"_s] = checked[checked.size() / 2];
    json[u"check_over_read"_s] = checked.front() / read.front();
    json[u"check_over_read_median"_s] = checked[checked.size() / 2] / read[read.size() / 2];
    if (!inMemory.empty()) {
        json[u"check_command_ms"_s] = command.front();
        json[u"check_array_ms"_s] = inMemory.front();
        json[u"check_array_over_file"_s] = inMemory.front() / command.front();
        json[u"check_array_over_file_median"_s] = inMemory[inMemory.size() / 2] / command[command.size() / 2];
    }
    // And RoPE's float32 cos table of the same size, written once the sinusoid's file is gone.
    const QJsonObject rope = ropeOverRead(path, rows, cols, repeats, threads, err);
    for (auto it = rope.begin(); it != rope.end(); ++it)
        json[it.key()] = it.value();
    json[u"check_identify_wide_ms"_s] = identifyWideMs(repeats);
    // And check --config, at the largest config it reads.
    const QJsonObject config = ConfigCheckBenchmark::times(repeats);
    for (auto it = config.begin(); it != config.end(); ++it)
        json[it.key()] = it.value();
    return json;
}

} // namespace posenc
