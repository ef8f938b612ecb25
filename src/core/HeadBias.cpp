#include "HeadBias.h"

#include "Engine.h"
#include "ParamText.h"
#include "RelativeTable.h"

#include <algorithm>
#include <cmath>
#include <iterator>

using namespace Qt::StringLiterals;

namespace posenc::HeadBias {

void fill(const Family &family, const Engine &engine, std::int64_t first, std::int64_t count, float *out)
{
    if (family.biases) {
        family.biases(engine, first, count, out);
        return;
    }
    for (std::int64_t k = 0; k < count; ++k)
        out[k] = static_cast<float>(family.at(engine.params(), first + k));
}

std::int64_t heads(const Family &family, const Params &params)
{
    return family.heads.heads(const_cast<Params &>(params));
}

std::int64_t head(const Family &family, const Params &params)
{
    return family.heads.head(const_cast<Params &>(params));
}

bool headsValid(const Family &family, const Params &params)
{
    return heads(family, params) >= 1 && heads(family, params) <= family.heads.maxHeads;
}

namespace {

// A row of H or K: the words of its key in the family's words file, its control from 0 to H's
// greatest, idle under another encoding, its tooltip the file's then `now`'s.
ParamSpec headsControl(ParamSpec s, const Family &family, std::function<QString(const Params &)> now)
{
    const FamilyWords words = family.words.part(u"rows"_s).part(s.key);
    s.help = words.text(u"help"_s);
    s.label = words.text(u"label"_s);
    s.controlMin = 0;
    s.controlMax = family.heads.maxHeads;
    s.idle = ParamRows::familyIdle(family.encoding);
    s.formula = [text = words.text(u"formula"_s), now = std::move(now)](const Params &p) { return text + now(p); };
    return s;
}

} // namespace

ParamSpec headsRow(const Family &family, std::function<QString(const Params &)> now)
{
    return headsControl(ParamRows::integer(family.heads.headsKey, ParamGroup::Family, family.heads.heads,
                                           [max = family.heads.maxHeads](const Params &) {
                                               return std::pair<std::int64_t, std::int64_t>(1, max);
                                           }),
                        family, std::move(now));
}

ParamSpec headRow(const Family &family, std::function<QString(const Params &)> now)
{
    // Head K is one of the H heads: its range follows H while H is valid.
    const auto bounds = [family](const Params &p) {
        return std::pair<std::int64_t, std::int64_t>(1,
                                                     headsValid(family, p) ? heads(family, p) : family.heads.maxHeads);
    };
    return headsControl(ParamRows::integer(family.heads.headKey, ParamGroup::Family, family.heads.head, bounds,
                                           u" (%1)"_s.arg(family.heads.headsKey)),
                        family, std::move(now));
}

ParamSpec maskRow(const Family &family)
{
    const FamilyWords words = family.words.part(u"rows"_s).part(family.maskKey);
    ParamSpec s = family.maskChoice(words.texts(u"choices"_s));
    s.help = words.text(u"help"_s);
    s.label = QString(family.maskKey).replace(u'-', u'_');
    s.choiceLabels = words.texts(u"choiceLabels"_s);
    s.idle = ParamRows::familyIdle(family.encoding);
    s.formula = [text = words.text(u"formula"_s)](const Params &) { return text; };
    return s;
}

FamilySpec spec(const Family &family, Parts parts)
{
    FamilySpec spec = Families::fromWords(family.words, FamilyKind::ScoreBias);
    spec.heading = family.name;
    spec.rows = std::move(parts.rows);
    const QList<std::pair<QString, QString>> shapeKeys
        = parts.shape ? family.words.meanings(u"shapeKeys"_s) : QList<std::pair<QString, QString>>();
    spec.describe = [family, shapeKeys, ownKeys = spec.describeKeys, shape = parts.shape,
                     own = parts.describe](const Params &params) {
        Description::Entries entries {{u"heads"_s, heads(family, params)}, {u"head"_s, head(family, params)}};
        if (shape)
            std::ranges::move(Description::keyed(shapeKeys, shape(params)), std::back_inserter(entries));
        if (!family.maskKey.isEmpty())
            entries.emplace_back(u"mask"_s, ParamText::get(params, family.maskKey));
        std::ranges::move(Description::keyed(ownKeys, own(params)), std::back_inserter(entries));
        return entries;
    };
    // The meanings in describe's order: the kit's heads and head, then the family's.
    QList<std::pair<QString, QString>> meanings {{u"heads, head"_s, u"H and the head K (1..H)"_s}};
    meanings += shapeKeys;
    if (!family.maskKey.isEmpty())
        meanings.append({u"mask"_s, family.words.text(u"maskMeaning"_s)});
    spec.describeKeys = meanings + spec.describeKeys;
    spec.defaultFigures = std::move(parts.defaultFigures);
    spec.lessonNumbers = std::move(parts.lessonNumbers);
    spec.score
        = FamilyScore {family.name + u" bias"_s, [family](const Params &p, std::int64_t query, std::int64_t key) {
                           const double bias = family.at(p, key - query);
                           return std::isfinite(bias) ? std::optional(bias) : std::nullopt;
                       }};
    return spec;
}

std::optional<QString> missing(const Family &family, const Params &params)
{
    if (params.encoding != family.encoding)
        return u"only the %1 encoding biases the scores by %2"_s.arg(Families::word(family.encoding), family.madeOf);
    return std::nullopt;
}

QuantitySpec biasQuantity(const Family &family, Quantity quantity)
{
    QuantitySpec q;
    q.quantity = quantity;
    q.name = family.table;
    q.label = family.name + u" bias"_s;
    q.help = family.tableHelp;
    // The table reads the family's rows, its head among them, and the positions.
    q.reads = {u"encoding"_s, u"max-len"_s};
    for (const ParamSpec &row : Families::spec(family.encoding).rows())
        q.reads.append(row.key);
    q.chooser = family.heads.headKey;
    q.missing = [family](const Params &p) { return missing(family, p); };
    q.shape = [](const Params &p) { return Shape {p.maxLen, p.maxLen}; };
    // The rows + cols - 1 offsets' values once, each row copied from them.
    q.workCells = RelativeTable::workCells;
    q.fill = [family](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        RelativeTable::fill(block, out, streaming, [&](std::int64_t first, std::int64_t count, float *values) {
            HeadBias::fill(family, engine, first, count, values);
        });
    };
    q.bound = [family](const Params &p) { return missing(family, p) ? 1.0 : family.bound(p); };
    q.parameters = family.tableParameters;
    return q;
}

QList<std::int64_t> drawnHeads(std::int64_t heads, std::int64_t head, std::int64_t most)
{
    QList<std::int64_t> drawn;
    if (heads <= most) {
        for (std::int64_t k = 1; k <= heads; ++k)
            drawn.append(k);
        return drawn;
    }
    for (std::int64_t n = 0; n < most; ++n)
        drawn.append(1 + n * (heads - 1) / (most - 1));
    if (!drawn.contains(head)) {
        drawn.append(head);
        std::sort(drawn.begin(), drawn.end());
    }
    return drawn;
}

} // namespace posenc::HeadBias
