// The encoding families of the program, one line each (docs/ARCHITECTURE.md, "Encoding families"),
// in the order of --encoding's words, of the Encoding enum and of the control panel: adding a
// family is its folders, its tests, its docs and one line here ("Adding an encoding family").
// Each line reads the family's manifest, src/core/<family>/<Name>Family.inc. No include guard:
// Params.h, FamilySpec.h, Quantity.h, render's FigureRegistry and FamilyPanels and check's
// FamilyChecks read this list, each with one of the manifests' macros defined (POSENC_FAMILY_PARAMS,
// POSENC_FAMILY, POSENC_FAMILY_QUANTITY, POSENC_FAMILY_FIGURE, POSENC_FAMILY_CHECK,
// POSENC_FAMILY_PANEL), to include the families' parameters, to name the enum's values and Params'
// members, to list the quantities and the figures after the shared ones, to declare and call each
// family's make<Name>Family(), and to find each family's facets of the layers above core: its
// check (make<Name>Check(), src/check/) and its families-figure panel (make<Name>Panel(),
// src/render/data/). The order is the list's: not sorted.
// clang-format off
#include "core/sinusoidal/SinusoidalFamily.inc"
#include "core/learned/LearnedFamily.inc"
#include "core/none/NoneFamily.inc"
#include "core/rope/RopeFamily.inc"
#include "core/alibi/AlibiFamily.inc"
#include "core/t5/T5Family.inc"
#include "core/deberta/DebertaFamily.inc"
#include "core/sandwich/SandwichFamily.inc"
#include "core/mrope/MropeFamily.inc"
#include "core/rope2d/Rope2dFamily.inc"
#include "core/sincos2d/Sincos2dFamily.inc"
#include "core/kerple/KerpleFamily.inc"
// clang-format on
