#pragma once

#include "core/rope/RopeParams.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// What each rope_type of HF transformers' modeling_rope_utils.py is, written once: its word, the
// keys HF's validator requires and allows in its dict, and the parameters posenc reads for it
// (docs/ARCHITECTURE.md, Encoding families). The parameter rows' idle reasons and needs, the words
// of the types and `posenc describe --help` come from this table.
namespace posenc::RopeTypes {

// A key of a rotary config dict and the parameter posenc holds it in.
struct Key
{
    QString config; // as HF's configs spell it: "original_max_position_embeddings"
    QString param; // the parameter's key: "original-max-len"
};

struct TypeSpec
{
    RopeType type = RopeType::Default;
    // rope_type as HF's configs and --rope-type spell it.
    QString word;
    // _validate_<type>_rope_parameters' required_keys and optional_keys. _check_received_keys also
    // takes partial_rotary_factor from every type, and "type" for "rope_type"; neither is listed.
    QStringList required;
    QStringList optional;
    // standardize_rope_params moves original_max_position_embeddings into the type's dict (from
    // the config's top level, else max_position_embeddings).
    bool takesOriginal = false;
    // The parameters of the scaling this type reads, besides head-dim, rope-theta,
    // partial-rotary-factor, rope-layout and rope-type, which every type reads.
    QStringList reads;
    // Those of them it cannot run without. longrope also needs rope-factor where no
    // attention-factor is given (its only use of the factor).
    QStringList needs;
    // What the type does to the frequencies, in a line of HTML for a tooltip.
    QString summary;
};

// Every type, in the order of RopeType (--rope-type's words).
const QList<TypeSpec> &all();
const TypeSpec &of(RopeType type);

// rope_type's words, in the order of RopeType: "default", "linear", ..., "proportional".
const QStringList &words();
QString word(RopeType type);
std::optional<RopeType> fromWord(const QString &word);

// The scaling's keys of a config dict with their parameters, in the order of the parameter table.
const QList<Key> &keys();
// The config's name of a parameter's key, or the key itself where it has none.
QString configKey(const QString &param);

// Whether `type` reads the scaling parameter `param` (any parameter outside the scaling: true).
bool reads(RopeType type, const QString &param);
// The types that read the scaling parameter `param`, in the order of RopeType.
QList<RopeType> readers(const QString &param);
// The types that cannot run without `param`.
QList<RopeType> needers(const QString &param);

} // namespace posenc::RopeTypes
