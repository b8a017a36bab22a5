# bash completion for ncgrind(1)                          -*- shell-script -*-
#
# The options, and the words their values take, are the program's own:
# `ncgrind --list-options` prints them from getopt_long's table and from the
# lists of the reports, formats, sort keys and groups. The completion asks
# the program it completes at each Tab (as bash-completion's _parse_help asks
# --help), so it never falls behind it. Profiles (callgrind.out.*,
# cachegrind.out.*) are offered before the other files.
#
# It needs bash 4 and nothing else: it does not use bash-completion's helpers,
# so it works the same with or without that package.

# _ncgrind_dequote WORD: WORD as the shell will read it (quotes, backslashes),
# into _ncgrind_word; without eval, so that nothing typed is run.
_ncgrind_dequote()
{
	local in=$1 c q= i
	_ncgrind_word=
	for ((i = 0; i < ${#in}; i++)); do
		c=${in:i:1}
		if [[ -z $q && ($c == "'" || $c == '"') ]]; then
			q=$c
		elif [[ -n $q && $c == "$q" ]]; then
			q=
		elif [[ $c == '\' && $q != "'" ]] && ((i + 1 < ${#in})); then
			i=$((i + 1))
			_ncgrind_word+=${in:i:1}
		else
			_ncgrind_word+=$c
		fi
	done
}

# _ncgrind_files WORD [-d]: the files (-d: the directories) that complete
# WORD, into COMPREPLY: the profiles first, then the rest, each sorted.
_ncgrind_files()
{
	local f
	local -a profiles=() others=()
	_ncgrind_dequote "$1"
	while IFS= read -r f; do
		case ${f##*/} in
		callgrind.out.* | cachegrind.out.*) profiles+=("$f") ;;
		*) others+=("$f") ;;
		esac
	done < <(compgen "${2:--f}" -- "$_ncgrind_word" | LC_ALL=C sort)
	COMPREPLY=("${profiles[@]}" "${others[@]}")
	# (quoted and marked as files by readline; shown in this order, bash 4.4+)
	compopt -o filenames -o nosort 2>/dev/null
	return 0
}

# _ncgrind_values PREFIX VALUE WORDS: complete VALUE from WORDS, as --list-options
# gives them (words, <dir>, <file> or nothing), each reply after PREFIX.
_ncgrind_values()
{
	local prefix=$1 value=$2 words=$3 i
	case $words in
	'<dir>') _ncgrind_files "$value" -d ;;
	'<file>') _ncgrind_files "$value" ;;
	*) mapfile -t COMPREPLY < <(compgen -W "$words" -- "$value") ;;
	esac
	for i in "${!COMPREPLY[@]}"; do
		COMPREPLY[i]=$prefix${COMPREPLY[i]}
	done
}

_ncgrind()
{
	local prog=${1:-ncgrind} cur=${COMP_WORDS[COMP_CWORD]} prev= before= line i
	local -A values=()
	local -a names=()

	COMPREPLY=()
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	((COMP_CWORD > 1)) && before=${COMP_WORDS[COMP_CWORD - 2]}
	[[ $prog == '~/'* ]] && prog=$HOME/${prog#'~/'}
	# after "--" or a redirection, only files
	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -- ]] && {
			_ncgrind_files "$cur"
			return 0
		}
	done
	[[ $prev == *[\<\>] ]] && {
		_ncgrind_files "$cur"
		return 0
	}
	# "--name=" (takes a value) or "-X", then a tab and the words of its value
	while IFS= read -r line; do
		names+=("${line%%$'\t'*}")
		[[ $line == *$'\t'* ]] && values[${line%%$'\t'*}]=${line#*$'\t'}
	done < <("$prog" --list-options 2>/dev/null)

	# bash splits "--dump=fu" at '=' (COMP_WORDBREAKS has it): "--dump" "=" "fu";
	# where it does not, "--dump=fu" is one word, and the replies keep "--dump="
	if [[ $cur == = && $prev == --* ]]; then
		_ncgrind_values "" "" "${values[$prev=]-}"
	elif [[ $prev == = && $before == --* ]]; then
		_ncgrind_values "" "$cur" "${values[$before=]-}"
	elif [[ $cur == --*=* ]]; then
		_ncgrind_values "${cur%%=*}=" "${cur#*=}" "${values[${cur%%=*}=]-}"
	elif [[ $prev == --* && " ${names[*]} " == *" $prev= "* ]]; then
		_ncgrind_values "" "$cur" "${values[$prev=]-}" # --dump functions
	elif [[ $prev == -? && -n ${values[$prev]-} ]]; then
		_ncgrind_values "" "$cur" "${values[$prev]}" # -I DIR
	elif [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "${names[*]}" -- "$cur")
		[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
	else
		_ncgrind_files "$cur"
	fi
	return 0
}

complete -F _ncgrind ncgrind
