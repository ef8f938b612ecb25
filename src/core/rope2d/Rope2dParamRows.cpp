#include "Rope2dParamRows.h"

#include "Rope2dRotation.h"
#include "core/TrContext.h"

using namespace Qt::StringLiterals;

namespace posenc::Rope2dParamRows {

namespace {

constexpr TrContext tr {"Rope2dParamRows"};

bool underRope2d(const Params &p)
{
    return p.encoding == Encoding::Rope2d;
}

std::optional<IdleReason> rope2dIdle(const Params &p)
{
    return ParamRows::otherEncoding(p, Encoding::Rope2d);
}

QString listText(const std::vector<std::int64_t> &values)
{
    QStringList words;
    for (const std::int64_t v : values)
        words.append(QString::number(v));
    return ParamError::quoted(words.join(u','));
}

// A list of integers typed as "a,b,c" (IndexList's syntax), at most `most` of them.
ParamSpec listRow(const QString &key, const QString &valueName, std::vector<std::int64_t> Rope2dParams::*field,
                  qsizetype most)
{
    ParamSpec s;
    s.key = key;
    s.group = ParamGroup::Family;
    s.kind = ParamKind::IndexList;
    s.valueName = valueName;
    s.value = [field](const Params &p) { return ParamValue(p.rope2d.*field); };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (const auto *list = std::get_if<std::vector<std::int64_t>>(&v))
            p.rope2d.*field = *list;
    };
    s.parse = [most](const QString &t) -> std::optional<ParamValue> {
        if (auto v = ParamTable::parseIndexList(t, most))
            return ParamValue(std::move(*v));
        return std::nullopt;
    };
    s.idle = rope2dIdle;
    return s;
}

ParamSpec styleRow()
{
    ParamSpec s = ParamRows::choice(u"rope-2d-style"_s, ParamGroup::Family, &Params::rope2d, &Rope2dParams::style,
                                    styleWords());
    s.help = u"how the pairs split between the grid's axes: qwen-vit (rows then columns, each the ladder of\n"
             "      head_dim/2, 2 x 2 merge order), pixtral (rows the even, columns the odd frequencies), flux\n"
             "      (EmbedND, an axis per axes-dim entry), axial (RoPE-ViT: columns then rows, one ladder) or\n"
             "      hunyuan (HunyuanImage 3.0: one ladder in column order, pairs row, column, row, ...)"_s;
    s.label = u"rope_2d_style"_s;
    s.choiceLabels
        = {u"qwen-vit: rows | columns, merge order"_s, u"pixtral: rows even, columns odd"_s, u"flux: EmbedND axes"_s,
           u"axial: columns | rows (RoPE-ViT)"_s, u"hunyuan: row, column interleaved"_s};
    s.check = [](const Params &p) -> std::optional<ParamError> {
        if (!underRope2d(p))
            return std::nullopt;
        if (const auto problem = Rope2dRotation::styleProblem(p))
            return ParamError {u"rope-2d-style"_s, QString(), *problem, std::nullopt};
        const std::vector<std::int64_t> &grid = p.sincos2d.grid;
        const std::int64_t m = p.mrope.spatialMergeSize;
        // A grid out of its range is the grid's own error, named once.
        if (p.rope2d.style == Rope2dStyle::QwenVit && grid.size() == 2 && grid[0] >= 1 && grid[1] >= 1 && m >= 1
            && (grid[0] % m != 0 || grid[1] % m != 0))
            return ParamError {u"rope-2d-style"_s, QString(),
                               u"qwen-vit lists patches in %1 x %1 merge blocks: the grid %2 x %3 must be a multiple "
                               "of spatial-merge-size %1"_s.arg(m)
                                   .arg(grid[0])
                                   .arg(grid[1]),
                               std::nullopt};
        return std::nullopt;
    };
    s.idle = rope2dIdle;
    s.formula = [](const Params &) {
        return tr("Qwen-VL's ViT (rot_pos_emb): pairs 0 … d/4 − 1 turn with the row, the rest with the column, "
                  "each at 1/θ<sup>2k/(d/2)</sup>. Pixtral: one ladder 1/θ<sup>2k/d</sup>, rows on its even k, "
                  "columns on its odd k. FLUX (EmbedND): axis i its own ladder over axes_dim[i]. Axial (RoPE-ViT): "
                  "columns then rows, each 1/θ<sup>4k/d</sup>. HunyuanImage 3.0: one ladder 1/θ<sup>2k/d</sup> in "
                  "column order, pair k on the row where k is even, on the column where it is odd.");
    };
    return s;
}

ParamSpec axesRow()
{
    ParamSpec s = listRow(u"axes-dim"_s, u"D0,D1,D2[,D3]"_s, &Rope2dParams::axesDim, Rope2dParams::kMaxAxes);
    s.help = u"FLUX's axes_dim: the columns of each id axis (t, h, w[, l]), summing to head_dim: FLUX.1\n"
             "      16,56,56 (theta 10000), FLUX.2 32,32,32,32 (theta 2000)"_s;
    s.label = u"axes_dim"_s;
    s.allowed = [](const Params &) { return u"3 to 8 even column counts summing to head-dim"_s; };
    s.check = [](const Params &p) -> std::optional<ParamError> {
        if (!underRope2d(p) && p.rope2d.axesDim.size() >= 3)
            return std::nullopt;
        if (const auto problem = Rope2dRotation::axesProblem(p))
            return ParamError {u"axes-dim"_s, *problem, QString(), listText(p.rope2d.axesDim)};
        return std::nullopt;
    };
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = rope2dIdle(p))
            return idle;
        if (p.rope2d.style == Rope2dStyle::Flux)
            return std::nullopt;
        return IdleReason {IdleReason::Code::FamilySetting, tr("only rope-2d-style flux reads axes_dim.")};
    };
    s.formula = [](const Params &) {
        return tr("EmbedND: axis i turns axes_dim[i]/2 pairs at θ<sup>−2k/axes_dim[i]</sup>; an image patch has ids "
                  "(0, row, column) in FLUX.1, (0, row, column, 0) in FLUX.2, so axis 0 (and 3) never turns.");
    };
    return s;
}

ParamSpec patchRow()
{
    ParamSpec s = listRow(u"patch"_s, u"R,C"_s, &Rope2dParams::patch, 2);
    s.help = u"the patch (row, column) that rope2d-score compares every patch of the grid with; auto: the\n"
             "      grid's centre (H/2, W/2)"_s;
    s.label = u"patch"_s;
    // Unset (auto) is the grid's centre, whatever the grid: no grid makes it out of range.
    s.value = [](const Params &p) { return p.rope2d.patch.empty() ? ParamValue() : ParamValue(p.rope2d.patch); };
    s.assign = [](Params &p, const ParamValue &v) {
        if (const auto *list = std::get_if<std::vector<std::int64_t>>(&v))
            p.rope2d.patch = *list;
        else if (std::holds_alternative<std::monostate>(v))
            p.rope2d.patch.clear();
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        const QString word = t.trimmed();
        if (word.isEmpty() || word == u"auto"_s || word == u"none"_s)
            return ParamValue();
        if (auto v = ParamTable::parseIndexList(word, 2); v && !v->empty())
            return ParamValue(std::move(*v));
        return std::nullopt;
    };
    s.allowed = [](const Params &p) {
        const std::vector<std::int64_t> &g = p.sincos2d.grid;
        if (g.size() == 2)
            return u"auto, or r,c within the grid: r in [0, %1], c in [0, %2]"_s.arg(g[0] - 1).arg(g[1] - 1);
        return u"auto, or r,c within the grid"_s;
    };
    s.check = [allowed = s.allowed](const Params &p) -> std::optional<ParamError> {
        const std::vector<std::int64_t> &at = p.rope2d.patch;
        if (at.empty())
            return std::nullopt;
        const std::vector<std::int64_t> &g = p.sincos2d.grid;
        const bool shape = at.size() == 2 && at[0] >= 0 && at[1] >= 0;
        // Within the grid, where the grid is one (the grid's own check names it otherwise).
        const bool grid = g.size() == 2 && g[0] >= 1 && g[1] >= 1;
        if (shape && (!underRope2d(p) || !grid || (at[0] < g[0] && at[1] < g[1])))
            return std::nullopt;
        return ParamError {u"patch"_s, allowed(p), QString(), listText(at)};
    };
    s.formula = [](const Params &) {
        return tr("rope2d-score: ⟨R(p₀)q, R(p)q⟩/‖q‖² for q all ones, the mean over the pairs of the cosine of their "
                  "angle at p less their angle at p₀ = this patch.");
    };
    return s;
}

ParamSpec originRow()
{
    ParamSpec s = listRow(u"rope-2d-origin"_s, u"R,C"_s, &Rope2dParams::origin, 2);
    s.help = u"the ids (row, column) of the grid's first patch, where an image follows other tokens:\n"
             "      HunyuanImage 3.0's beta_y = L + floor((wh - h)/2), beta_x = L + floor((wh - w)/2); auto: 0,0"_s;
    s.label = u"rope_2d_origin"_s;
    s.value = [](const Params &p) { return p.rope2d.origin.empty() ? ParamValue() : ParamValue(p.rope2d.origin); };
    s.assign = [](Params &p, const ParamValue &v) {
        if (const auto *list = std::get_if<std::vector<std::int64_t>>(&v))
            p.rope2d.origin = *list;
        else if (std::holds_alternative<std::monostate>(v))
            p.rope2d.origin.clear();
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        const QString word = t.trimmed();
        if (word.isEmpty() || word == u"auto"_s || word == u"none"_s)
            return ParamValue();
        if (auto v = ParamTable::parseIndexList(word, 2); v && !v->empty())
            return ParamValue(std::move(*v));
        return std::nullopt;
    };
    s.allowed = [](const Params &) { return u"auto, or r,c: ids in [0, %1)"_s.arg(Params::kMaxLen); };
    s.check = [allowed = s.allowed](const Params &p) -> std::optional<ParamError> {
        const std::vector<std::int64_t> &at = p.rope2d.origin;
        if (at.empty()
            || (at.size() == 2 && at[0] >= 0 && at[1] >= 0 && at[0] < Params::kMaxLen && at[1] < Params::kMaxLen))
            return std::nullopt;
        return ParamError {u"rope-2d-origin"_s, allowed(p), QString(), listText(at)};
    };
    s.formula = [](const Params &) {
        return tr("A patch at (r, c) of the grid turns by the ids (r₀ + r, c₀ + c): the origin (r₀, c₀) of an image "
                  "placed after L tokens, HunyuanImage 3.0's (L + (wh − h)/2, L + (wh − w)/2).");
    };
    return s;
}

} // namespace

const QStringList &styleWords()
{
    static const QStringList words = {u"qwen-vit"_s, u"pixtral"_s, u"flux"_s, u"axial"_s, u"hunyuan"_s};
    return words;
}

QList<ParamSpec> rows()
{
    return {styleRow(), axesRow(), patchRow(), originRow()};
}

} // namespace posenc::Rope2dParamRows
