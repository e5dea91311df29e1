% The SWI-Prolog side of targets/swipl. The target writes this file to swipl's standard input,
% followed by end_of_file, and calls serve/0, which reads requests from the same stream: a line
% with the length of a program in characters, then the program. It loads each program into a
% fresh temporary module and answers with one line per solution R of row(R) in that module
% ("R", then a tab before each element of R, escaped), then "OK"; or with one line "E", a tab
% and the escaped text of the first error. Escaping writes \ as \\, tab as \t, newline as \n and
% carriage return as \r.
:- module(polyfuzz_server, [serve/0]).

serve :-
    set_stream(user_input, encoding(utf8)),
    set_stream(user_output, encoding(utf8)),
    current_prolog_flag(version, V),
    format("polyfuzz-swipl ~d.~d.~d~n", [V // 10000, V // 100 mod 100, V mod 100]),
    flush_output,
    requests.

requests :-
    read_line_to_string(user_input, Line),
    (   Line == end_of_file
    ->  true
    ;   Line == ""
    ->  requests
    ;   number_string(N, Line),
        read_string(user_input, N, Text),
        answer(Text),
        flush_output,
        requests
    ).

% While a program is loaded and run, the message hook swallows every message and keeps the text
% of the first error.
:- dynamic capturing/0, first_error/1.
:- multifile user:message_hook/3.
user:message_hook(_, Kind, Lines) :-
    capturing,
    (   Kind == error, \+ first_error(_)
    ->  with_output_to(string(S), print_message_lines(current_output, '', Lines)),
        assertz(first_error(S))
    ;   true
    ).

answer(Text) :-
    setup_call_cleanup(assertz(capturing), run(Text, Rows), retractall(capturing)),
    abolish_all_tables,
    (   retract(first_error(Msg))
    ->  split_string(Msg, "", " \n", [Trimmed]),
        write('E\t'), put_field(Trimmed), nl
    ;   forall(member(R, Rows), put_row(R)),
        write('OK\n')
    ).

run(Text, Rows) :-
    (   catch(in_temporary_module(polyfuzz_program, true, solutions(polyfuzz_program, Text, Rows)),
              E, (print_message(error, E), Rows = []))
    ->  true
    ;   print_message(error, format("loading the program failed", [])),
        Rows = []
    ).

% solutions(+Module, +Text, -Rows) loads Text into Module and finds the solutions of row/1;
% what the program prints is discarded.
solutions(M, Text, Rows) :-
    setup_call_cleanup(
        open_string(Text, In),
        with_output_to(string(_), load_files(M:program, [stream(In), silent(true)])),
        close(In)),
    (   first_error(_)
    ->  Rows = []
    ;   with_output_to(string(_), findall(R, M:row(R), Rows))
    ).

put_row(R) :-
    write('R'),
    (   is_list(R)
    ->  forall(member(F, R), (write('\t'), put_field(F)))
    ;   write('\t'), put_field(R)
    ),
    nl.

put_field(F) :- integer(F), !, write(F).
put_field(F) :- ( atom(F) ; string(F) ), !, atom_codes(F, Cs), put_escaped(Cs).
put_field(F) :- format(codes(Cs), "~q", [F]), put_escaped(Cs).

put_escaped([]).
put_escaped([C|Cs]) :- put_escaped_code(C), put_escaped(Cs).

put_escaped_code(0'\\) :- !, write('\\\\').
put_escaped_code(0'\t) :- !, write('\\t').
put_escaped_code(0'\n) :- !, write('\\n').
put_escaped_code(0'\r) :- !, write('\\r').
put_escaped_code(C) :- put_code(C).
