#include "CheckIdsDeclared.h"

#include "ExitCode.h"

#include "check/TensorShapes.h"
#include "check/positions/MropeIdsStructure.h"
#include "io/NpyWriter.h"
#include "io/PositionIdsFile.h"

#include <QTemporaryDir>

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

// An [L, 2] array that lists each patch of an H x W grid once in whole blocks of m x m patches (m
// 2, 4 or 3, dividing H and W), each block's rows consecutive and row-major inside it: the order
// of Qwen2-VL's and Qwen2.5-VL's vision rot_pos_emb (transformers models/qwen2_5_vl/
// modeling_qwen2_5_vl.py, Qwen2_5_VisionTransformerPretrainedModel.rot_pos_emb: hpos_ids and
// wpos_ids reshaped (h / m, m, w / m, m) and permuted (0, 2, 1, 3), m = spatial_merge_size), or
// those blocks reordered whole, as get_window_index lists them by window (forward:
// rotary_pos_emb[window_index, :, :] of blocks of spatial_merge_unit rows). The grid, m, and each
// row's index in rot_pos_emb's own order.
struct MergeBlocks
{
    std::int64_t height = 0, width = 0, merge = 0;
    std::vector<std::int64_t> index; // [row] -> its patch's row in rot_pos_emb's order
    bool inOrder = true; // every row at its own index
};

std::optional<MergeBlocks> mergeBlocks(const RowMatrixXf &ids)
{
    const std::int64_t count = ids.rows();
    if (count < 4 || ids.cols() != 2 || !(ids.minCoeff() >= 0.0f))
        return std::nullopt;
    const auto height = std::int64_t(ids.col(0).maxCoeff()) + 1, width = std::int64_t(ids.col(1).maxCoeff()) + 1;
    if (height * width != count)
        return std::nullopt;
    for (const std::int64_t m : {2, 4, 3}) {
        if (height % m != 0 || width % m != 0)
            continue;
        MergeBlocks b {height, width, m, std::vector<std::int64_t>(std::size_t(count)), true};
        std::vector<bool> seen(std::size_t(count), false);
        bool blocks = true;
        for (std::int64_t k = 0; k < count && blocks; ++k) {
            const double h = ids(k, 0), w = ids(k, 1);
            const std::int64_t first = k - k % (m * m);
            const double h0 = ids(first, 0), w0 = ids(first, 1);
            const std::int64_t inner = k % (m * m);
            blocks = h == std::floor(h) && w == std::floor(w) && std::fmod(h0, double(m)) == 0.0
                && std::fmod(w0, double(m)) == 0.0 && h == h0 + double(inner / m) && w == w0 + double(inner % m);
            if (!blocks)
                break;
            const auto hi = std::int64_t(h), wi = std::int64_t(w);
            const std::int64_t at = ((hi / m) * (width / m) + wi / m) * m * m + inner;
            blocks = !seen[std::size_t(at)];
            seen[std::size_t(at)] = true;
            b.index[std::size_t(k)] = at;
            b.inOrder = b.inOrder && at == k;
        }
        if (blocks)
            return b;
    }
    return std::nullopt;
}

// The flags merge-block ids stand for: the grid and spatial_merge_size, and where the blocks are
// in another order (Qwen2.5-VL's windows), each row's index in rot_pos_emb's order as 1-D
// --position-ids, written into `held`: the table's rows are then read at those positions.
std::variant<QStringList, int> mergeBlockFlags(const MergeBlocks &b, const QStringList &arguments,
                                               std::shared_ptr<const QTemporaryDir> *held, QTextStream &err)
{
    const std::optional<QString> family = valueOf(arguments, u"--expect"_s);
    const std::optional<QString> style = valueOf(arguments, u"--rope-2d-style"_s);
    const std::optional<QString> merge = valueOf(arguments, u"--spatial-merge-size"_s);
    if (family == u"sincos-2d"_s || (style && *style != u"qwen-vit"_s) || (merge && *merge != QString::number(b.merge)))
        return failWith(err, ExitUsage,
                        u"these [L, 2] ids list a %1 x %2 grid in blocks of %3 x %3 patches, as the Qwen-VL vision "
                        "encoder's rot_pos_emb does (spatial_merge_size %3): 2-D RoPE's qwen-vit style, which the "
                        "declaration is not (give --expect rope-2d --rope-2d-style qwen-vit, or the grid with "
                        "--grid H,W)"_s.arg(b.height)
                            .arg(b.width)
                            .arg(b.merge));
    QStringList flags {u"--grid"_s, u"%1,%2"_s.arg(b.height).arg(b.width)};
    if (!merge)
        flags << u"--spatial-merge-size"_s << QString::number(b.merge);
    if (b.inOrder)
        return flags;
    auto dir = std::make_shared<QTemporaryDir>();
    RowMatrixXf positions(1, std::int64_t(b.index.size()));
    for (std::size_t k = 0; k < b.index.size(); ++k)
        positions(0, std::int64_t(k)) = float(b.index[k]);
    const QString path = dir->filePath(u"positions.npy"_s);
    if (!dir->isValid() || !held || writeNpy(path, positions))
        return failWith(err, ExitIo, u"the ids' positions could not be written to a temporary file"_s);
    *held = std::move(dir);
    return flags << u"--position-ids"_s << path;
}

} // namespace

std::optional<std::variant<QStringList, int>> rewrite(const QStringList &arguments, const QString &idsPath,
                                                      const Table &table, std::uint64_t budget, QTextStream &err,
                                                      std::optional<double> tokensPerSecond,
                                                      std::shared_ptr<const QTemporaryDir> *held)
{
    const auto ids = PositionIdsFile::read(idsPath, budget);
    if (!ids)
        return std::nullopt; // said as before, by the rows' reading of the file
    const std::vector<std::int64_t> &shape = ids->shape;
    const std::int64_t rows = table.rows;
    // A stack's slices each at a row of [S, N] ids: the stack's dimensions other than 1 before its
    // columns are the ids' (TensorShapes::stackShape).
    std::vector<std::int64_t> slices = TensorShapes::notOne(table.shape);
    if (!slices.empty())
        slices.pop_back();
    const bool perSlice = shape.size() == 2 && slices == shape && shape[0] * shape[1] == rows && shape[0] > 1;
    if (perSlice && !(table.mropeDeclared && shape[0] == 3))
        return std::nullopt;
    if (perSlice)
        return failWith(
            err, ExitUsage,
            u"ids [3, %1] for a stack of 3 slices of %1 rows read two ways: M-RoPE's t, h, w of one "
            "sequence (its axes' tables before the merge: give them as [3, 1, %1]) or each slice's own "
            "positions (a batch's [B, L] position_ids: declare the slices' family, --expect rope)"_s.arg(shape[1]));
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
    const auto blocks = hw ? std::nullopt : mergeBlocks(ids->values);
    if (blocks && declared) {
        auto flags = mergeBlockFlags(*blocks, arguments, held, err);
        if (const int *code = std::get_if<int>(&flags))
            return *code;
        return rewritten + std::get<QStringList>(std::move(flags));
    }
    if (blocks)
        return failWith(err, ExitUsage,
                        u"[L, 2] ids of a %1 x %2 grid in blocks of %3 x %3 patches (the Qwen-VL vision encoder's "
                        "rot_pos_emb, spatial_merge_size %3): a table at them is compared with a declared 2-D RoPE "
                        "(--expect rope-2d --rope-2d-style qwen-vit); without one the check reads the table's grid "
                        "itself"_s.arg(blocks->height)
                            .arg(blocks->width)
                            .arg(blocks->merge));
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

void threeSlicesOrAxes(TableMatch &match, const QString &idsPath, const Table &table, bool declared,
                       std::uint64_t budget)
{
    if (declared || match.verdict != CheckVerdict::Mistake)
        return;
    const auto ids = PositionIdsFile::read(idsPath, budget);
    std::vector<std::int64_t> slices = TensorShapes::notOne(table.shape);
    if (!slices.empty())
        slices.pop_back();
    if (!ids || ids->shape.size() != 2 || ids->shape[0] != 3 || slices != ids->shape)
        return;
    match.notes.prepend(u"read as each slice's own positions (a batch's [B, L] position_ids): %1%2"_s.arg(
        match.mistakes.isEmpty() ? QString() : u"mistake (%1): "_s.arg(match.mistakes.join(u", "_s)),
        match.diagnosis));
    match.verdict = CheckVerdict::Unknown;
    match.mistakes.clear();
    match.diagnosis = u"ids [3, %1] for a stack of 3 slices of %1 rows read two ways: each slice's own positions (a "
                      "batch's [B, L] position_ids), which the rows are not at, or M-RoPE's t, h, w of one sequence "
                      "(a merged M-RoPE cache's batch of 3, or its axes' tables before the merge, given as [3, 1, "
                      "%1]); --expect decides (--expect mrope and the prompt, or the slices' family)"_s.arg(
                          ids->shape[1]);
}

} // namespace posenc::CheckIdsDeclared
