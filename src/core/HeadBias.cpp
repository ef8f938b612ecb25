#include "HeadBias.h"

#include "Engine.h"
#include "FamilySpec.h"
#include "RelativeTable.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::HeadBias {

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

ParamSpec headsRow(const Family &family, QString help, QString label, std::function<QString(const Params &)> formula)
{
    ParamSpec s = ParamRows::integer(family.heads.headsKey, ParamGroup::Family, family.heads.heads,
                                     [max = family.heads.maxHeads](const Params &) {
                                         return std::pair<std::int64_t, std::int64_t>(1, max);
                                     });
    s.help = std::move(help);
    s.label = std::move(label);
    s.controlMin = 0;
    s.controlMax = family.heads.maxHeads;
    s.idle = ParamRows::familyIdle(family.encoding);
    s.formula = std::move(formula);
    return s;
}

ParamSpec headRow(const Family &family, QString help, QString label, std::function<QString(const Params &)> formula)
{
    // Head K is one of the H heads: its range follows H while H is valid.
    const auto bounds = [family](const Params &p) {
        return std::pair<std::int64_t, std::int64_t>(1, headsValid(family, p) ? heads(family, p)
                                                                              : family.heads.maxHeads);
    };
    ParamSpec s = ParamRows::integer(family.heads.headKey, ParamGroup::Family, family.heads.head, bounds,
                                     u" (%1)"_s.arg(family.heads.headsKey));
    s.help = std::move(help);
    s.label = std::move(label);
    s.controlMin = 0;
    s.controlMax = family.heads.maxHeads;
    s.idle = ParamRows::familyIdle(family.encoding);
    s.formula = std::move(formula);
    return s;
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
        const Params &params = engine.params();
        RelativeTable::fill(block, out, streaming, [&](std::int64_t first, std::int64_t count, float *values) {
            family.biases(params, first, count, values);
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
