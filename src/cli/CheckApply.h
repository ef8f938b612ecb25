#pragma once

#include "CommandOption.h"

#include "check/TableMatch.h"

#include <QCommandLineParser>
#include <QStringList>
#include <QTextStream>

#include <cstdint>
#include <optional>

// posenc check --apply X Y: a rotation checked, not a table (core/rope/ApplyCheck.h).
namespace posenc::CheckApply {

// --apply X, beside posenc check's other options.
CommandOption option();

struct Request
{
    QString x; // --apply's value
    QStringList positional; // Y alone
    std::uint64_t budget = 0;
    std::optional<RopeLayout> layout; // --rope-layout, when given
    bool json = false;
    int (*exitCode)(CheckVerdict) = nullptr; // posenc check's code of each verdict
    // The parameter flags (--encoding mrope and its flags, --config, --partial-rotary-factor, ...):
    // what Y is meant to be.
    const QCommandLineParser *parser = nullptr;
    int threads = 0;
};

// Reads X and Y whole, checks (RoPE's check, or M-RoPE's where the parameters are encoding mrope),
// prints the report (or --json's object) on `out`; the exit code.
int run(const Request &request, QTextStream &out, QTextStream &err);

} // namespace posenc::CheckApply
