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
                                                      std::int64_t rows, std::uint64_t budget, QTextStream &err)
{
    const auto ids = PositionIdsFile::read(idsPath, budget);
    if (!ids)
        return std::nullopt; // said as before, by the rows' reading of the file
    const std::vector<std::int64_t> &shape = ids->shape;
    const bool mrope = (shape.size() == 2 && shape[0] == 3 && shape[1] == rows)
        || (shape.size() == 3 && shape[0] == 3 && shape[1] == 1 && shape[2] == rows);
    const bool grid = shape.size() == 2 && shape[1] == 2 && shape[0] == rows;
    if (!mrope && !grid)
        return std::nullopt;
    const bool declared = given(arguments, u"--expect"_s);
    QStringList rewritten = withoutIds(arguments);
    if (mrope) {
        bool merged = true;
        const std::int64_t merge = valueOf(arguments, u"--spatial-merge-size"_s).value_or(u"2"_s).toLongLong(&merged);
        const MropeIdsStructure::ReadPrompt read = MropeIdsStructure::promptOf(ids->values, merged ? merge : 2);
        if (!read.problem.isEmpty())
            return failWith(err, ExitUsage,
                            u"M-RoPE's [3, L] ids (t, h, w) of the table's rows stand for the prompt they lay out, "
                            "but %1; check the ids alone (posenc check --position-ids %2) or declare the prompt "
                            "(--prompt)"_s.arg(read.problem, idsPath));
        if (!declared)
            return failWith(
                err, ExitUsage,
                u"M-RoPE's [3, L] ids (t, h, w) read as get_rope_index's of the prompt %1: a table at "
                "them is compared with a declared M-RoPE (--expect mrope with --preset, --config or its "
                "parameters); without one the check reads the table's split, theta and ids itself"_s.arg(read.prompt));
        rewritten << u"--prompt"_s << read.prompt;
        if (read.v5 && !given(arguments, u"--mrope-era"_s))
            rewritten << u"--mrope-era"_s << u"v5"_s;
        return rewritten;
    }
    const auto hw = rowMajorGrid(ids->values);
    if (!hw)
        return failWith(err, ExitUsage,
                        u"a 2-D table's [L, 2] ids are its patches' (row, column), enumerating an H x W grid row by "
                        "row (the column fastest); these do not (row k holds (k / W, k % W)): give the grid "
                        "(--grid H,W) the table was made for"_s);
    if (!declared)
        return failWith(err, ExitUsage,
                        u"[L, 2] ids of a %1 x %2 grid, row by row: a table at them is compared with a declared 2-D "
                        "family (--expect rope-2d or sincos-2d, with --preset or its parameters); without one the "
                        "check reads the table's grid itself"_s.arg(hw->first)
                            .arg(hw->second));
    rewritten << u"--grid"_s << u"%1,%2"_s.arg(hw->first).arg(hw->second);
    if (!given(arguments, u"--patch"_s))
        rewritten << u"--patch"_s << u"auto"_s;
    return rewritten;
}

} // namespace posenc::CheckIdsDeclared
