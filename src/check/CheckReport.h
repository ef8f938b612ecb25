#pragma once

#include "check/ModelConfigCheck.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Description.h"
#include "core/Params.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <utility>
#include <vector>

// The words of `posenc check`'s verdicts, shared by the command line and the window (docs/
// ARCHITECTURE.md, Checking a table, Checking a model config): what one prints, the other shows.
namespace posenc::CheckReport {

// "float32", "bfloat16", "integers", "text": how a checked table's cells were stored.
QString storedWords(StoredType stored);

// A table's verdict, a line each: "table: …", "verdict: …", "encoding: …", "reference: …",
// "precision: …", "first position row: …", "max |error|: …", "deviating: …", "diagnosis: …",
// "note: …" (the lines without a value left out).
QStringList tableLines(const TableMatch &match, const TableRows &table);

// A config's value as text: JSON's where `json`, else the same without a word's quotes.
QString configValueText(const ConfigValue &value, bool json);
// "0-31", "0-2, 4-6, 8": a layer list in runs.
QString layerRuns(const std::vector<std::int64_t> &layers);
// A layer type's type, layers, encoding and scheme (schemeEntries), as `posenc describe --config`
// prints them before its family's numbers.
QList<std::pair<QString, QString>> layerSchemeEntries(const ConfigLayer &layer, bool json);
// A layer type's keys and values, as `posenc check --config` prints them: its type and layers,
// its encoding, the config's values, then the keys `posenc describe` prints for its family
// (null where the layer cannot be computed).
QList<std::pair<QString, QString>> layerEntries(const ConfigLayer &layer, bool json);
// The keys `posenc describe` prints for the layer's family, with the softmax factor its model's
// attention applies (layerDescription); null where the layer cannot be computed (an error, or a
// DeBERTa without buckets). None for a layer without a family that describe has numbers for.
QList<std::pair<QString, QString>> layerNumbers(const ConfigLayer &layer, bool json);
// A layer's scheme as keys and values: where its rotation sits, its head, window, chunk, query
// scaling and softmax scale (null where they do not apply).
QList<std::pair<QString, ConfigValue>> schemeEntries(const LayerScheme &scheme);
// `posenc describe`'s numbers of a layer, with the softmax factor its model's attention applies;
// none where the layer cannot be computed.
std::optional<Description::Entries> layerDescription(const ConfigLayer &layer);

// The window opens at most this many positions, as the presets do, to stay responsive.
constexpr std::int64_t kWindowMaxLen = 131072;
// The parameters the window opens a layer type on (`posenc check --config --open`, File > Open
// model config…): the layer's, max_len capped at kWindowMaxLen; `capped` says when it was.
struct WindowParams
{
    Params params;
    bool capped = false;
    std::int64_t modelMaxLen = 0; // the layer's own max_len
};
WindowParams windowParams(const ConfigLayer &layer);

// The window's parameters set to a reference's (the matched table's, a config's layer type):
// `matched`'s encoding, its family's group, d_model and max_len over `current`, which keeps its
// embeddings, dropout, seed and budget; `matched` alone with `current`'s memory budget where the
// two do not make valid parameters together (a concat's pe_dims wider than the new d_model).
Params referenceParams(const Params &current, const Params &matched);

} // namespace posenc::CheckReport
