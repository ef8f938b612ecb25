#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include <QStringList>
#include <QTextStream>

// posenc check --position-ids IDS.npy (docs/ARCHITECTURE.md, Positions in practice): a batch's
// position ids against the reference's for the batch given by the parameters (--batch, --packed,
// --attention-mask, --document-ids, --cache, and M-RoPE's prompt), naming the mistake. Its own
// parser, as --config's: the table check's options do not apply. To move beside the check layer's
// command once it exists.
namespace posenc::PositionIdsCheckCommand {

CommandOption option();
// Whether the arguments ask for it.
bool requested(const QStringList &arguments);
int run(const QStringList &arguments, QTextStream &out, QTextStream &err);
// Its part of posenc check --help.
QList<HelpSection> helpSections();

} // namespace posenc::PositionIdsCheckCommand
