#pragma once

#include "check/ConfigFindings.h"
#include "check/ConfigValues.h"

#include <QSet>
#include <QStringList>

// What `posenc check --config` says of a model as its row of the table knows it (docs/
// ARCHITECTURE.md, Model knowledge): how the row was read, keys its code does not read, and the
// position schemes that runtimes got wrong in 2025-26, each with the thread it comes from.
namespace posenc {

struct ConfigContext;

namespace ModelFindings {

// Of the row: an unknown model_type (a guess), a row read by fingerprint, keys not read.
void reportRow(ConfigContext &context);
// Of the layers read: NoPE layers, chunked and NoPE layers, the query scaling, LongRoPE's
// factors, interleaved pairs, MLA's tail and its indexer, and the position keys a guess left unread.
void reportLayers(ConfigContext &context);
// The keys of `o` whose words speak of position (rope, rotary, theta, pos, position, positional,
// alibi, relative, ctx, context, ntk, logn, seq_len, sequence_len) but for the paths in `read` and
// those false, null or {}: each "path value", eight at most, then "N more".
QStringList positionKeys(const ConfigObject &o, const QSet<QString> &read);
// The kinds of finding they report (ConfigFindings::catalogue).
QList<ConfigFindings::Kind> kinds();

} // namespace ModelFindings

} // namespace posenc
