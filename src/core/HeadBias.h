#pragma once

#include "Description.h"
#include "FamilySpec.h"
#include "FamilyWords.h"
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
// (RelativeTable), its mask row, and its descriptor (spec) with the describe entries and the score
// every such family has. A family gives its formula (the bias at an offset), its parameters and
// its words (its words file: docs/ARCHITECTURE.md, Adding an encoding family); check's HeadBiasFit
// and render's HeadBiasModel take the same Family.
namespace posenc {
class Engine;
}

namespace posenc::HeadBias {

// Where a family keeps its heads: H and the head K shown (1..H), their rows' keys, H's greatest.
struct Heads
{
    std::function<std::int64_t &(Params &)> heads, head;
    QString headsKey, headKey;
    std::int64_t maxHeads = 4096;
};

struct Family
{
    Encoding encoding = {};
    QString name; // "ALiBi": "ALiBi bias", "ALiBi's attention heads"
    QString table; // its bias table's word, "alibi-bias"
    // Its words file (<Family>Words.json): its descriptor's words and describe's meanings, and under
    // "rows" the words of its rows of H, K and the mask, by key.
    FamilyWords words;
    Heads heads;
    QString maskKey; // its mask row's key: "alibi", "sandwich-mask"; empty: it has one mask
    // Its mask row's choice of `words` (ParamRows::choice of its group's member `mask`).
    std::function<ParamSpec(QStringList words)> maskChoice;
    // Head K's bias at the key offset t = j − i in double (−inf where the mask hides the key), for
    // valid parameters: its formula, and its term of a score of two ids.
    std::function<double(const Params &, std::int64_t offset)> at;
    // The same at the offsets first .. first + count − 1 as float32, each value rounded once, where
    // the family computes a row faster than offset by offset, from the engine's parameters and the
    // sources it keeps for the table (Sandwich's sums of each distance); unset: `at` at each offset.
    std::function<void(const Engine &, std::int64_t first, std::int64_t count, float *out)> biases;
    // The largest |bias| head K gives in the table: its colour scale's half width.
    std::function<double(const Params &)> bound;
    // Its words: what its bias is made of, for the reason other families have no such table
    // ("head slopes"), and its table's line of `posenc table --help`, its words file's "madeOf" and
    // "tableHelp"; and its title's parts at the parameters ("head 3 of 12", "causal, L = 1,024").
    QString madeOf;
    QString tableHelp;
    std::function<QStringList(const Params &)> tableParameters;
};

// A family's keys: its rows of H, K and the mask, and its bias table's word.
struct Keys
{
    QString heads, head, mask, table;
};

// The Family of the group of Params `group` (params.alibi), whose members `heads` and `head` are H
// and K and whose kMaxHeads is H's greatest: its identity and the words of its file `words`, which the
// family completes with its formula. A family whose reference has one mask names none (keys.mask
// empty).
template<class Group> Family family(Encoding encoding, Group Params::*group, QString name, FamilyWords words, Keys keys)
{
    Family f;
    f.encoding = encoding;
    f.name = std::move(name);
    f.table = std::move(keys.table);
    f.madeOf = words.text(QStringLiteral("madeOf"));
    f.tableHelp = words.text(QStringLiteral("tableHelp"));
    f.words = std::move(words);
    f.heads = {[group](Params &p) -> std::int64_t & { return (p.*group).heads; },
               [group](Params &p) -> std::int64_t & { return (p.*group).head; }, std::move(keys.heads),
               std::move(keys.head), Group::kMaxHeads};
    f.maskKey = std::move(keys.mask);
    return f;
}

// The same with its mask, the member `mask` of its group, chosen by the row keys.mask.
template<class Group, class Mask>
Family family(Encoding encoding, Group Params::*group, Mask Group::*mask, QString name, FamilyWords words, Keys keys)
{
    Family f = family(encoding, group, std::move(name), std::move(words), std::move(keys));
    f.maskChoice = [group, mask, key = f.maskKey](QStringList words) {
        return ParamRows::choice(key, ParamGroup::Family, group, mask, std::move(words));
    };
    return f;
}

// Head K's biases at the offsets first .. first + count − 1 as float32: the family's `biases`, or
// `at` rounded once at each.
void fill(const Family &family, const Engine &engine, std::int64_t first, std::int64_t count, float *out);

// H and K of `params` (K's range follows H while H is valid).
std::int64_t heads(const Family &family, const Params &params);
std::int64_t head(const Family &family, const Params &params);
bool headsValid(const Family &family, const Params &params);

// Its rows of H and of K, keyed as the family says, idle under another encoding, with the words of
// their keys in its words file ("help", "label", and "formula", the tooltip's text); `now` adds to
// the tooltip what it is at the parameters.
ParamSpec headsRow(const Family &family, std::function<QString(const Params &)> now);
ParamSpec headRow(const Family &family, std::function<QString(const Params &)> now);

// Its mask row: the choice among the words file's "choices" of its key, labelled by its key, idle
// under another encoding; its "choiceLabels", "help" and "formula" as ParamSpec's.
ParamSpec maskRow(const Family &family);

// What a family of the kit gives its descriptor beyond its Family and its words: its rows, views
// and lessons' numbers (none unless given), and the values of its describe entries other than the shared heads, head
// and mask, keyed by its words file (`shape`, printed between head and mask, by its "shapeKeys": Sandwich's head_dim;
// `describe`, after the mask, by its "describeKeys").
struct Parts
{
    std::function<QList<ParamSpec>()> rows {};
    std::function<Description::Values(const Params &)> shape {}, describe {};
    QList<DefaultFigure> defaultFigures {};
    std::function<QList<LessonNumbers::Entry>()> lessonNumbers {};
};

// Its descriptor: a bias on the scores under its name's heading, with the words of its words file
// (Families::fromWords; each key's meaning: the shared heads and head's, then its "shapeKeys", its
// "maskMeaning" where it has a mask row, its "describeKeys"), `parts`' rows and views; describe
// prints heads, head, the shape's entries, mask (where it has a row) and its own, each keyed as its
// meaning says; its score of two ids is `at` of their offset where finite.
FamilySpec spec(const Family &family, Parts parts);

// Its bias table as the quantity `quantity`: head K's bias of query i for key j, reading the
// family's rows.
QuantitySpec biasQuantity(const Family &family, Quantity quantity);
// Why `params` have no such table: another encoding.
std::optional<QString> missing(const Family &family, const Params &params);

// The heads a figure draws of H: every head up to `most`, else an even choice of that many from 1 to
// H, with head K among them.
QList<std::int64_t> drawnHeads(std::int64_t heads, std::int64_t head, std::int64_t most);

} // namespace posenc::HeadBias
