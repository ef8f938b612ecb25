#include "Sincos2dParamRows.h"

#include "core/NumberText.h"
#include "core/TrContext.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::Sincos2dParamRows {

namespace {

constexpr TrContext tr {"Sincos2dParamRows"};

std::optional<IdleReason> sincosIdle(const Params &p)
{
    return ParamRows::otherEncoding(p, Encoding::Sincos2d);
}

// The grid's problem beyond its range under sincos-2d: the table must cover max_len's positions.
std::optional<QString> tableProblem(const Params &p)
{
    const Sincos2dParams &s = p.sincos2d;
    const std::int64_t tokens = s.grid[0] * s.grid[1] + (s.clsToken ? 1 : 0);
    if (p.maxLen >= 1 && p.maxLen > tokens)
        return u"the grid gives %1 positions (H·W%2), fewer than max_len %3: set max_len (--max-len) to %1 (or fewer, "
               u"the "
               "table's first rows)"_s.arg(tokens)
                   .arg(s.clsToken ? u" + the cls token"_s : QString())
                   .arg(p.maxLen);
    return std::nullopt;
}

// The table splits its columns in four (a sin and a cos of each axis): a width that is no multiple
// of 4 is d_model's problem, or pe_dims' in concat, not the grid's.
std::optional<ParamError> widthProblem(const Params &p)
{
    const std::int64_t columns = p.peColumns();
    if (columns <= 0 || columns % 4 == 0)
        return std::nullopt;
    const bool concat = p.compose == Compose::Concat;
    return ParamError {concat ? u"pe-dims"_s : u"d-model"_s,
                       u"a multiple of 4: sincos-2d's table splits its %1 in four (sin and cos of each axis)"_s.arg(
                           concat ? u"pe_dims columns"_s : u"d_model columns"_s),
                       QString(), QString::number(columns)};
}

ParamSpec gridRow()
{
    ParamSpec s;
    s.key = u"grid"_s;
    s.group = ParamGroup::Family;
    s.kind = ParamKind::IndexList;
    s.valueName = u"H,W"_s;
    s.help = u"the patch grid: H rows and W columns of patches (sincos-2d's rows are its H·W patches, the\n"
             "      cls token first; rope-2d rotates each patch by its row and column)"_s;
    s.label = u"grid"_s;
    s.value = [](const Params &p) { return ParamValue(p.sincos2d.grid); };
    s.assign = [](Params &p, const ParamValue &v) {
        if (const auto *list = std::get_if<std::vector<std::int64_t>>(&v))
            p.sincos2d.grid = *list;
    };
    // H,W as a list; HxW too, as a grid is written (14x14) and as --size takes a size.
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (auto v = ParamTable::parseIndexList(QString(t).replace(u'x', u','), 2))
            return ParamValue(std::move(*v));
        return std::nullopt;
    };
    const QString allowed = u"H,W: two integers in [1, 16384], H·W at most 16777216"_s;
    s.allowed = [allowed](const Params &) { return allowed; };
    s.check = [allowed](const Params &p) -> std::optional<ParamError> {
        const std::vector<std::int64_t> &g = p.sincos2d.grid;
        const bool ranged = g.size() == 2 && g[0] >= 1 && g[1] >= 1 && g[0] <= Sincos2dParams::kMaxSide
            && g[1] <= Sincos2dParams::kMaxSide && g[0] * g[1] <= Sincos2dParams::kMaxPatches;
        if (!ranged) {
            QStringList words;
            for (const std::int64_t v : g)
                words.append(QString::number(v));
            return ParamError {u"grid"_s, allowed, QString(), ParamError::quoted(words.join(u','))};
        }
        if (p.encoding == Encoding::Sincos2d) {
            if (const auto problem = tableProblem(p))
                return ParamError {u"grid"_s, QString(), *problem, std::nullopt};
            return widthProblem(p);
        }
        return std::nullopt;
    };
    // rope-2d reads it too (FamilySpec::borrows).
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (p.encoding == Encoding::Rope2d)
            return std::nullopt;
        return sincosIdle(p);
    };
    s.formula = [](const Params &) {
        return tr("H × W patches, numbered row by row (patch n = row · W + column). sincos-2d's table has a row per "
                  "patch; rope-2d rotates each by its row and column.");
    };
    return s;
}

ParamSpec clsRow()
{
    ParamSpec s = ParamRows::switchRow(u"cls-token"_s, ParamGroup::Family,
                                       [](Params &p) -> bool & { return p.sincos2d.clsToken; });
    s.help = u"MAE's cls_token=True (--cls too): one zero row before the patches (DiT and diffusers add none\n"
             "      without extra_tokens)"_s;
    s.label = u"cls_token"_s;
    s.controlText = u"cls token: a zero row first (MAE)"_s;
    s.idle = sincosIdle;
    s.formula = [](const Params &) {
        return tr("MAE's get_2d_sincos_pos_embed(cls_token=True) puts one row of zeros first, for the cls token: "
                  "position 0 adds nothing, patch n is row n + 1.");
    };
    return s;
}

ParamSpec baseSizeRow()
{
    ParamSpec s = ParamRows::optionalNumber(u"base-size"_s, ParamGroup::Family,
                                            [](Params &p) -> std::optional<double> & { return p.sincos2d.baseSize; });
    s.valueName = u"NUMBER|unset"_s;
    s.unsetText = u"unset"_s;
    s.help = u"diffusers' base_size: a coordinate is i / (H / base_size) / interpolation_scale, each axis by\n"
             "      its own size; unset, the indices themselves (MAE, DiT)"_s;
    s.label = u"base_size"_s;
    const QString allowed = u"unset or a number in (0, 1e6]"_s;
    s.allowed = [allowed](const Params &) { return allowed; };
    s.check = [allowed](const Params &p) -> std::optional<ParamError> {
        const std::optional<double> &b = p.sincos2d.baseSize;
        if (!b || (std::isfinite(*b) && *b > 0.0 && *b <= Sincos2dParams::kMaxBaseSize))
            return std::nullopt;
        return ParamError {u"base-size"_s, allowed, QString(), NumberText::exact(*b)};
    };
    s.idle = sincosIdle;
    s.formula = [](const Params &) {
        return tr("diffusers' PatchEmbed passes base_size = sample_size // patch_size, so both axes span [0, "
                  "base_size) whatever the grid: a grid larger than the one trained on is squeezed, and a "
                  "non-square one is stretched differently on each axis.");
    };
    return s;
}

ParamSpec interpolationRow()
{
    ParamSpec s = ParamRows::numberRow(u"interpolation-scale"_s, ParamGroup::Family,
                                       [](Params &p) -> double & { return p.sincos2d.interpolationScale; });
    s.help = u"diffusers' interpolation_scale: the coordinates are divided by it"_s;
    s.label = u"interpolation_scale"_s;
    const QString allowed = u"a number in (0, 1e6]"_s;
    s.allowed = [allowed](const Params &) { return allowed; };
    s.check = [allowed](const Params &p) -> std::optional<ParamError> {
        const double v = p.sincos2d.interpolationScale;
        if (std::isfinite(v) && v > 0.0 && v <= 1e6)
            return std::nullopt;
        return ParamError {u"interpolation-scale"_s, allowed, QString(), NumberText::exact(v)};
    };
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = sincosIdle(p))
            return idle;
        if (p.sincos2d.baseSize)
            return std::nullopt;
        return IdleReason {IdleReason::Code::FamilySetting,
                           tr("only diffusers' coordinates (a base-size) divide by it.")};
    };
    s.formula = [](const Params &) {
        return tr("diffusers divides each coordinate by interpolation_scale after the base_size scaling (PixArt's "
                  "higher resolutions use 2).");
    };
    return s;
}

} // namespace

QList<ParamSpec> rows()
{
    return {gridRow(), clsRow(), baseSizeRow(), interpolationRow()};
}

} // namespace posenc::Sincos2dParamRows
