#pragma once

#include "ParamTable.h"
#include "Params.h"
#include "Quantity.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>

// The kit of a family whose head K adds a bias of the key's offset to each query's attention
// scores (ALiBi, Sandwich; docs/ARCHITECTURE.md, Adding an encoding family), written once: its
// heads H and K, and its bias table, head K's [max_len, max_len], filled as a table of offsets
// (RelativeTable). A family gives its formula (the bias at the offsets), its parameters and its
// words; check's HeadBiasFit and render's HeadBiasMaps take the same Family.
namespace posenc::HeadBias {

// Where a family keeps its heads: H and the head K shown (1..H), their rows' keys, H's greatest.
struct Heads
{
    std::function<std::int64_t &(Params &)> heads, head;
    QString headsKey, headKey;
    std::int64_t maxHeads = 4096;
};

// The heads of a family's group of Params whose members are `heads` and `head` (params.alibi).
template<class Group>
Heads headsOf(Group Params::*group, QString headsKey, QString headKey, std::int64_t maxHeads)
{
    return {[group](Params &p) -> std::int64_t & { return (p.*group).heads; },
            [group](Params &p) -> std::int64_t & { return (p.*group).head; }, std::move(headsKey), std::move(headKey),
            maxHeads};
}

struct Family
{
    Encoding encoding = {};
    QString name; // "ALiBi": "ALiBi bias", "ALiBi's attention heads"
    QString table; // its bias table's word, "alibi-bias"
    Heads heads;
    // Head K's bias at the key offsets t = j − i = first .. first + count − 1, as float32 (−inf where
    // the mask hides a key), for valid parameters: its formula.
    std::function<void(const Params &, std::int64_t first, std::int64_t count, float *out)> biases;
    // The largest |bias| head K gives in the table: its colour scale's half width.
    std::function<double(const Params &)> bound;
    // Its words: what its bias is made of, for the reason other families have no such table
    // ("head slopes"); its table's line of `posenc table --help`; and its title's parts at the
    // parameters ("head 3 of 12", "causal, L = 1,024").
    QString madeOf;
    QString tableHelp;
    std::function<QStringList(const Params &)> tableParameters;
};

// H and K of `params` (K's range follows H while H is valid).
std::int64_t heads(const Family &family, const Params &params);
std::int64_t head(const Family &family, const Params &params);
bool headsValid(const Family &family, const Params &params);

// Its rows of H and of K, keyed as the family says, idle under another encoding; `help` and
// `label` as ParamSpec's, `formula` its tooltip.
ParamSpec headsRow(const Family &family, QString help, QString label,
                   std::function<QString(const Params &)> formula);
ParamSpec headRow(const Family &family, QString help, QString label, std::function<QString(const Params &)> formula);

// Its bias table as the quantity `quantity`: head K's bias of query i for key j, reading the
// family's rows.
QuantitySpec biasQuantity(const Family &family, Quantity quantity);
// Why `params` have no such table: another encoding.
std::optional<QString> missing(const Family &family, const Params &params);

// The heads a figure draws of H: every head up to `most`, else an even choice of that many from 1 to
// H, with head K among them.
QList<std::int64_t> drawnHeads(std::int64_t heads, std::int64_t head, std::int64_t most);

} // namespace posenc::HeadBias
