#pragma once

#include <QString>

// Who gave the reference a declared reading's sentence speaks of (docs/ARCHITECTURE.md, Checking a
// table, "A declared reference"): the user's declaration (--expect, --expect-config, a preset), or
// the reading of a reference table (--expect-table), whose parameters nobody declared. The
// sentences that name a parameter against the reference are made deep in a family's check; they
// take their words from here, and the path that streams a table against a reference
// (TableCheck::streamDeclared, from DeclaredRows::by) says who gave it for as long as it runs.
namespace posenc::DeclaredWords {

enum class By { Declaration, ReferenceTable };

// `by` is who gave the reference for the sentences this thread makes while the scope lives; the
// scope before it is restored after.
class Scope
{
public:
    explicit Scope(By by);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

private:
    By m_previous;
};

By current();

// "where the declaration gives" / "where the reference table's reading gives"
QString whereGiven();
// A parameter the user did not give (DeclaredRows::given): "where the default, not declared, is";
// a reference table's reading gives every parameter: whereGiven().
QString whereDefault();
// "was declared" / "is the reference table's", after the value: "where half was declared".
QString wasDeclared();
// "is declared" / "is the reference table's": "rope_type default where llama3 is declared".
QString isDeclared();
// "the declared reference" / "the reference table's reading"
QString reference();
// "the declared reference's" / "the reference table's"
QString referenceOf();
// "the declared" / "the reference table's", before a reference's words: "as the declared rope-cos,
// half layout, ... does".
QString the();
// "the declared parameters" / "the reference table's parameters"
QString parameters();

} // namespace posenc::DeclaredWords
