#pragma once

#include "check/TableMatch.h"
#include "core/Block.h"
#include "core/Params.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

// How `posenc check --apply X Y` checks a family's rotation (docs/ARCHITECTURE.md, Checking a
// rotation): each family whose layers turn a query or key gives an ApplyHypothesis in its check
// facet (FamilyCheck); the command reads X and Y, chooses the family the parameters declare (or the
// list's first with one) and prints what its check reports. The command names no family.
namespace posenc {

// What the command line declares of Y: the parameters read from its flags (those of the family
// chosen, or the declarable keys' alone where no other flag was given), the keys given, and whether
// they are a model config's layer (--config).
struct ApplyDeclaration
{
    Params params;
    QStringList keys; // the parameter keys given ("rope-layout", "partial-rotary-factor", "prompt")
    bool config = false;
    // The format Y's file stores its values in: float16 and bfloat16 values are compared within
    // their rounding.
    ValueFormat stored = ValueFormat::Float32;
    int threads = 0; // 0: every core
    // Each row's position (--position-ids: a forward pass's q or k of a padded or packed batch);
    // empty: row r is at position r.
    std::vector<std::int64_t> positionIds;
    // The reference declared in full (--expect FAMILY and its flags, --preset, --config,
    // --expect-config, a family's parameter flags), as the table check compares with one: what
    // the check fits (frequencies, attention factor, rotary_dim, pairing) is compared with it and
    // each parameter that differs named. Unset: nothing declared but the keys read alone (`keys`).
    std::optional<Params> reference;
    // Where a model is declared (--preset, --config, --expect-config), whether its code writes
    // interleaved RoPE's output de-interleaved, [evens | odds], as transformers'
    // apply_rotary_pos_emb_interleave does (modeling_deepseek_v3.py); unset where none is.
    std::optional<bool> deinterleaves;
    // Where a model config declared the reference (--config, --expect-config): the file, and where
    // each of its numbers comes from (ConfigLayer::sources); a number read by guess caps the verdict
    // (GuessedReading).
    QString configPath;
    QList<std::pair<QString, QString>> configSources;

    bool declares(const QString &key) const { return keys.contains(key); }
};

// A family's check of a rotation, reported: the verdict, and its words as lines and as `--json`'s
// object.
struct ApplyResult
{
    CheckVerdict verdict = CheckVerdict::Unknown;
    QStringList lines;
    QString json;
};

struct ApplyHypothesis
{
    // What it finds, a sentence of `posenc check --help`'s --apply, naming its mistakes' ids.
    QString help;
    // The bytes a row of the check's own takes, held with X and Y within the memory budget (a
    // position each; M-RoPE's three ids twice).
    double rowBytes = 8.0;
    // The parameter key of a row's width (head_dim), which X's columns give where no flag does.
    QString widthKey;
    // The parameter keys it reads given alone, without naming the family (RoPE's rope-layout).
    QStringList declares;
    // Whether it reads a position id a row (--position-ids); a family whose rows take more (M-RoPE's
    // three) refuses the flag.
    bool positionIds = false;
    // X and Y checked, or why they cannot be (shapes, a width that is odd, parameters that do not
    // lay out).
    std::function<std::variant<ApplyResult, QString>(const RowMatrixXf &x, const RowMatrixXf &y,
                                                     const ApplyDeclaration &declared)>
        check;
};

} // namespace posenc
