#include "CheckIdsDeclared.h"

#include "ExitCode.h"

#include "check/positions/MropeIdsStructure.h"
#include "io/PositionIdsFile.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::CheckIdsDeclared {

namespace {

int failWith(QTextStream &err, int code, const QString &message)
{
    err << "posenc check: --position-ids: " << message << '\n';
    return code;
}

bool given(const QStringList &arguments, const QString &flag)
{
    return std::any_of(arguments.cbegin(), arguments.cend(),
                       [&](const QString &a) { return a == flag || a.startsWith(flag + u'='); });
}

// The value of `--flag V` or `--flag=V`, the last given.
std::optional<QString> valueOf(const QStringList &arguments, const QString &flag)
{
    std::optional<QString> value;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        if (arguments[i] == flag && i + 1 < arguments.size())
            value = arguments[i + 1];
        else if (arguments[i].startsWith(flag + u'='))
            value = arguments[i].section(u'=', 1);
    }
    return value;
}

// The arguments without --position-ids and its file.
QStringList withoutIds(const QStringList &arguments)
{
    QStringList rest;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        if (arguments[i] == u"--position-ids"_s) {
            ++i;
            continue;
        }
        if (!arguments[i].startsWith(u"--position-ids="_s))
            rest.append(arguments[i]);
    }
    return rest;
}

// An [L, 2] array's H x W where its rows enumerate that grid's (row, column) ids row by row, the
// column fastest, as a patch grid's rows are laid out.
std::optional<std::pair<std::int64_t, std::int64_t>> rowMajorGrid(const RowMatrixXf &ids)
{
    const std::int64_t count = ids.rows();
    if (count == 0 || ids.cols() != 2)
        return std::nullopt;
    const double w = double(ids.col(1).maxCoeff()) + 1.0;
    if (!(w >= 1.0) || w > double(count) || std::fmod(double(count), w) != 0.0)
        return std::nullopt;
    const auto width = std::int64_t(w);
    for (std::int64_t k = 0; k < count; ++k)
        if (double(ids(k, 0)) != double(k / width) || double(ids(k, 1)) != double(k % width))
            return std::nullopt;
    return std::pair {count / width, width};
}

} // namespace

std::optional<std::variant<QStringList, int>> rewrite(const QStringList &arguments, const QString &idsPath,
                                                      std::int64_t rows, std::uint64_t budget, QTextStream &err,
                                                      std::optional<double> tokensPerSecond)
{
    const auto ids = PositionIdsFile::read(idsPath, budget);
    if (!ids)
        return std::nullopt; // said as before, by the rows' reading of the file
    const std::vector<std::int64_t> &shape = ids->shape;
    const bool mrope = (shape.size() == 2 && shape[0] == 3 && shape[1] == rows)
        || (shape.size() == 3 && shape[0] == 3 && shape[1] == 1 && shape[2] == rows);
    const bool grid = shape.size() == 2 && shape[1] == 2 && shape[0] == rows;
    // Three rows of ids of another length, or the L x 3 transpose: M-RoPE's, said so in one line.
    if (!mrope && !grid && shape.size() == 2 && (shape[0] == 3 || (shape[1] == 3 && shape[0] == rows)))
        return failWith(err, ExitUsage,
                        u"M-RoPE's ids of a table of %1 rows are [3, %1] (t, h, w, as get_rope_index returns them); "
                        "got [%2, %3]%4"_s.arg(rows)
                            .arg(shape[0])
                            .arg(shape[1])
                            .arg(shape[0] == rows ? u": transpose them"_s : QString()));
    if (!mrope && !grid)
        return std::nullopt;
    // The family the ids are read with: --expect's, or a model config's (--expect-config).
    const std::optional<QString> family = valueOf(arguments, u"--expect"_s);
    const bool declared = family || given(arguments, u"--expect-config"_s);
    const QString meant = mrope ? u"mrope"_s : u"rope-2d or sincos-2d"_s;
    // M-RoPE declared by its family or one of its tables (mrope-cos, mrope-sin).
    const bool mropeDeclared = family && (*family == u"mrope"_s || family->startsWith(u"mrope-"_s));
    if (family && (mrope ? !mropeDeclared : *family != u"rope-2d"_s && *family != u"sincos-2d"_s))
        return failWith(err, ExitUsage,
                        u"%1 ids are %2's; --expect %3 declares another family"_s.arg(
                            mrope ? u"[3, L] (t, h, w)"_s : u"[L, 2] (row, column)"_s, meant, *family));
    QStringList rewritten = withoutIds(arguments);
    if (mrope) {
        bool merged = true;
        const std::int64_t merge = valueOf(arguments, u"--spatial-merge-size"_s).value_or(u"2"_s).toLongLong(&merged);
        const MropeIdsStructure::ReadPrompt read
            = MropeIdsStructure::promptOf(ids->values, merged ? merge : 2, tokensPerSecond);
        if (!read.problem.isEmpty())
            return failWith(
                err, ExitUsage,
                u"M-RoPE's [3, L] ids (t, h, w) of the table's rows stand for the prompt they lay out, "
                "but %1; check the ids alone (posenc check --position-ids %2)%3"_s.arg(
                    read.problem, idsPath, read.padded ? QString() : u" or declare the prompt (--prompt)"_s));
        if (!declared)
            return failWith(
                err, ExitUsage,
                u"M-RoPE's [3, L] ids (t, h, w) read as get_rope_index's of the prompt %1: a table at "
                "them is compared with a declared M-RoPE (--expect mrope with --preset or its parameters, or "
                "--expect-config with a Qwen-VL config.json); without one the check reads the table's split, "
                "theta and ids itself"_s.arg(read.prompt));
        rewritten << u"--prompt"_s << read.prompt;
        // Left padding: the row's real tokens after it, as a left-padded batch row declares them.
        if (read.leftPadding > 0)
            rewritten << u"--batch"_s << u"left:%1"_s.arg(rows - read.leftPadding);
        if (read.v5 && !given(arguments, u"--mrope-era"_s))
            rewritten << u"--mrope-era"_s << u"v5"_s;
        return rewritten;
    }
    const auto hw = rowMajorGrid(ids->values);
    if (!hw)
        return failWith(err, ExitUsage,
                        u"a 2-D table's [L, 2] ids stand for its grid where they enumerate its patches' (row, "
                        "column) row by row, the column fastest (id k = (k / W, k % W)); these are in another "
                        "order: give the grid (--grid H,W) the table was made for"_s);
    if (!declared)
        return failWith(err, ExitUsage,
                        u"[L, 2] ids of a %1 x %2 grid, row by row: a table at them is compared with a declared 2-D "
                        "family (--expect rope-2d or sincos-2d, with --preset or its parameters); without one the "
                        "check reads the table's grid itself"_s.arg(hw->first)
                            .arg(hw->second));
    rewritten << u"--grid"_s << u"%1,%2"_s.arg(hw->first).arg(hw->second);
    // 2-D RoPE's similarity patch, which a preset may place outside a smaller grid: the grid's own.
    if (!given(arguments, u"--patch"_s) && family == u"rope-2d"_s)
        rewritten << u"--patch"_s << u"auto"_s;
    return rewritten;
}

} // namespace posenc::CheckIdsDeclared
