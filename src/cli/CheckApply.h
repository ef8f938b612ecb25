#pragma once

#include "CommandOption.h"

#include "check/TableMatch.h"
#include "core/Params.h"

#include <QCommandLineParser>
#include <QStringList>
#include <QTextStream>

#include <cstdint>
#include <optional>

// posenc check --apply X Y: a rotation checked, not a table, by the apply check of the family the
// parameters declare (ApplyHypothesis, in each rotary family's FamilyCheck).
namespace posenc::CheckApply {

// --apply X, beside posenc check's other options.
CommandOption option();
// --apply-heads N: which of X's axes holds its heads (CheckApplyHeads::Axes).
CommandOption headsOption();

struct Request
{
    QString x; // --apply's value
    QStringList positional; // Y alone
    std::uint64_t budget = 0;
    // The parameters of posenc check's declarable flags (--rope-layout), read where no other
    // parameter flag is given.
    Params declared;
    bool json = false;
    int (*exitCode)(CheckVerdict) = nullptr; // posenc check's code of each verdict
    // The parameter flags (--encoding and its family's flags, --config, --partial-rotary-factor, ...):
    // what Y is meant to be.
    const QCommandLineParser *parser = nullptr;
    int threads = 0;
};

// Reads X and Y whole, checks (the declared family's apply check, else the list's first), prints
// the report (or --json's object) on `out`; the exit code.
int run(const Request &request, QTextStream &out, QTextStream &err);

} // namespace posenc::CheckApply
